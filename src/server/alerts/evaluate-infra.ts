// Node, PBS, storage (usage, unavailable, ZFS) and physical disk alerts. These collections are
// small next to the guests (a node carries ~100 guests), so each resource with trouble or an open
// alert is evaluated in full; the others cost a few comparisons.
import { NODE_METRICS, type Alert, type AlertMetric } from '../../shared/model/alerts.ts'
import type { PbsInstance, PhysicalDisk, PveNode, Storage } from '../../shared/model/state.ts'
import type { ThresholdResolver } from '../../shared/views/alert-thresholds.ts'
import {
  diskHealthId,
  diskWearoutId,
  metricAlertId,
  nodeOfflineId,
  pbsOfflineId,
  storageOfflineId,
  zfsDeviceId,
  zfsErrorsId,
  zfsStateId,
} from './alert-ids.ts'
import type { EngineRun } from './engine-run.ts'
import type { Freshness } from './freshness.ts'
import { metricObservation, stateObservation, type Place } from './observations.ts'

const HEALTHY_DISK = new Set(['PASSED', 'OK', 'UNKNOWN', ''])
const CRITICAL_ZFS = new Set(['FAULTED', 'UNAVAIL'])
const UNAVAILABLE_STORAGE = new Set(['inactive', 'offline', 'unavailable'])

/** Hold metric alerts left untouched (their value is not reported now); resolve the others. */
function settle(run: EngineRun, existing: readonly Alert[] | undefined, stateGone: boolean): void {
  if (!existing) return
  for (const alert of existing) {
    if (run.touched.has(alert.id)) continue
    if (stateGone && alert.metadata?.unit === undefined) run.resolve(alert, 'resolved')
    else run.holdStale(alert)
  }
}

function observeMetric(
  run: EngineRun,
  place: Place,
  existing: readonly Alert[] | undefined,
  metric: AlertMetric,
  value: number,
  pair: { trigger: number; clear: number } | null,
): void {
  if (!(value >= 0)) return
  // The id string is built only for a crossing or a resource with alerts.
  if ((!pair || value < pair.trigger) && !existing) return
  const id = metricAlertId(place.resourceId, metric)
  if ((!pair || value < pair.trigger) && !run.prev.active.has(id)) return
  run.observe(metricObservation(place, id, metric, value, pair))
}

function nodeValue(node: PveNode, metric: (typeof NODE_METRICS)[number]): number {
  if (metric === 'cpu') return node.cpu * 100
  if (metric === 'memory') return node.memory ? node.memory.usage : -1
  if (metric === 'disk') return node.disk ? node.disk.usage : -1
  const t = node.temperature
  if (!t || !t.available) return -1
  return t.cpuPackage ?? t.cpuMax ?? -1
}

export function evaluateNodes(
  run: EngineRun,
  nodes: readonly PveNode[],
  resolver: ThresholdResolver,
  fresh: Freshness,
): void {
  for (const node of nodes) {
    const existing = run.byResource.get(node.id)
    const t = resolver.node(node.id)
    if (t.disabled) {
      if (existing) for (const alert of existing) run.resolve(alert, 'disabled')
      continue
    }
    const down = fresh.nodeDown(node.instance, node.name)
    const place: Place = {
      resourceId: node.id,
      resourceName: node.displayName || node.name,
      node: node.name,
      instance: node.instance,
      resourceType: 'Node',
      klass: 'node',
    }
    if (down || existing) {
      const disabled = t.disableConnectivity || run.config.disableAllNodesOffline
      const message = `Node '${node.name}' is offline`
      const id = nodeOfflineId(node.id)
      run.observe(stateObservation(place, id, 'connectivity', down, 'critical', message, disabled))
    }
    if (!down) {
      for (const metric of NODE_METRICS) {
        observeMetric(run, place, existing, metric, nodeValue(node, metric), t.pairs[metric])
      }
    }
    settle(run, existing, false)
  }
}

export function evaluatePbs(
  run: EngineRun,
  servers: readonly PbsInstance[],
  resolver: ThresholdResolver,
  fresh: Freshness,
): void {
  for (const pbs of servers) {
    const existing = run.byResource.get(pbs.id)
    const t = resolver.pbs(pbs.id)
    if (t.disabled) {
      if (existing) for (const alert of existing) run.resolve(alert, 'disabled')
      continue
    }
    const down =
      pbs.status !== 'online' || pbs.connectionHealth === 'error' || !fresh.sourceUp(pbs.id)
    const place: Place = {
      resourceId: pbs.id,
      resourceName: pbs.name,
      node: pbs.host,
      instance: pbs.name,
      resourceType: 'PBS',
      klass: 'pbs',
    }
    if (down || existing) {
      const disabled = t.disableConnectivity || run.config.disableAllPBSOffline
      const message = `PBS instance ${pbs.name} is offline`
      const id = pbsOfflineId(pbs.id)
      run.observe(stateObservation(place, id, 'offline', down, 'critical', message, disabled))
    }
    if (!down) {
      // PBS reports cpu and memory in percent already.
      observeMetric(run, place, existing, 'cpu', pbs.cpu, t.pairs.cpu)
      observeMetric(run, place, existing, 'memory', pbs.memory, t.pairs.memory)
    }
    settle(run, existing, false)
  }
}

export function evaluateStorage(
  run: EngineRun,
  storages: readonly Storage[],
  resolver: ThresholdResolver,
  fresh: Freshness,
): void {
  for (const storage of storages) {
    const existing = run.byResource.get(storage.id)
    const pool = storage.zfsPool
    const unavailable = storage.enabled !== false && UNAVAILABLE_STORAGE.has(storage.status)
    const t = resolver.storage(storage.id)
    const usable = (storage.status === 'available' || storage.active) && storage.total > 0
    const hot =
      unavailable || (usable && storage.usage >= t.triggers.usage) || (pool && zfsTrouble(pool))
    if (!existing && !hot) continue
    // A storage whose node is down (or status unknown) is stale, not unavailable.
    if (storage.status === 'unknown' || fresh.isStale(storage.instance, storage.node)) {
      if (existing) for (const alert of existing) run.holdStale(alert)
      continue
    }
    if (t.disabled) {
      if (existing) for (const alert of existing) run.resolve(alert, 'disabled')
      continue
    }
    const place: Place = {
      resourceId: storage.id,
      resourceName: storage.name,
      node: storage.node,
      instance: storage.instance,
      resourceType: 'Storage',
      klass: 'storage',
    }
    const message = `Storage ${storage.name} on node ${storage.node} is unavailable`
    const offlineId = storageOfflineId(storage.id)
    run.observe(
      stateObservation(place, offlineId, 'offline', unavailable, 'warning', message, false),
    )
    if (usable) observeMetric(run, place, existing, 'usage', storage.usage, t.pairs.usage)
    if (pool) observeZfs(run, place, storage.id, pool)
    settle(run, existing, pool !== undefined)
  }
}

function zfsTrouble(pool: NonNullable<Storage['zfsPool']>): boolean {
  if (String(pool.state).toUpperCase() !== 'ONLINE') return true
  if (pool.readErrors + pool.writeErrors + pool.checksumErrors > 0) return true
  for (const device of pool.devices ?? []) if (deviceFailed(device)) return true
  return false
}

function deviceFailed(device: NonNullable<Storage['zfsPool']>['devices'][number]): boolean {
  const state = String(device.state ?? '').toUpperCase()
  const errors = device.errors || device.readErrors + device.writeErrors + device.checksumErrors
  return (state !== 'ONLINE' && state !== '') || errors > 0
}

function observeZfs(
  run: EngineRun,
  place: Place,
  storageId: string,
  pool: NonNullable<Storage['zfsPool']>,
): void {
  const state = String(pool.state).toUpperCase()
  const level = CRITICAL_ZFS.has(state) ? 'critical' : 'warning'
  const stateMessage = `ZFS pool ${pool.name} is ${state}`
  const stateOn = state !== 'ONLINE'
  run.observe(
    stateObservation(
      place,
      zfsStateId(storageId),
      'zfs-pool-state',
      stateOn,
      level,
      stateMessage,
      false,
    ),
  )
  const { readErrors: r, writeErrors: w, checksumErrors: c } = pool
  const errorsMessage = `ZFS pool ${pool.name} has errors: ${r} read, ${w} write, ${c} checksum`
  const errorsId = zfsErrorsId(storageId)
  const errorsOn = r + w + c > 0
  run.observe(
    stateObservation(place, errorsId, 'zfs-pool-errors', errorsOn, 'warning', errorsMessage, false),
  )
  for (const device of pool.devices ?? []) {
    const id = zfsDeviceId(storageId, device.name)
    const failed = deviceFailed(device)
    if (!failed && !run.prev.active.has(id)) continue
    const devState = String(device.state ?? '').toUpperCase() || 'ONLINE'
    const devLevel = CRITICAL_ZFS.has(devState) || devState === 'REMOVED' ? 'critical' : 'warning'
    const message = `ZFS device ${device.name} in pool ${pool.name} is ${devState}`
    run.observe(stateObservation(place, id, 'zfs-device', failed, devLevel, message, false))
  }
}

export function evaluatePhysicalDisks(
  run: EngineRun,
  disks: readonly PhysicalDisk[],
  resolver: ThresholdResolver,
  fresh: Freshness,
): void {
  for (const disk of disks) {
    const existing = run.byResource.get(disk.id)
    const health = String(disk.health ?? '').toUpperCase()
    const badHealth = !HEALTHY_DISK.has(health)
    const worn = disk.wearout > 0 && disk.wearout < 10
    if (!existing && !badHealth && !worn) continue
    if (fresh.isStale(disk.instance, disk.node)) {
      if (existing) for (const alert of existing) run.holdStale(alert)
      continue
    }
    const disabled = resolver.override(disk.id)?.disabled === true
    const place: Place = {
      resourceId: disk.id,
      resourceName: disk.devPath,
      node: disk.node,
      instance: disk.instance,
      resourceType: 'Disk',
      klass: 'node',
    }
    const meta = { diskPath: disk.devPath, diskModel: disk.model }
    const where = `Disk ${disk.devPath} on ${disk.node}`
    const healthId = diskHealthId(disk.instance, disk.node, disk.devPath)
    const healthMessage = `${where} health is ${health}`
    run.observe(
      stateObservation(
        place,
        healthId,
        'disk-health',
        badHealth,
        'critical',
        healthMessage,
        disabled,
        meta,
      ),
    )
    const wearId = diskWearoutId(disk.instance, disk.node, disk.devPath)
    const wearMessage = `${where} has ${disk.wearout}% life left`
    run.observe(
      stateObservation(place, wearId, 'disk-wearout', worn, 'warning', wearMessage, disabled, meta),
    )
  }
}
