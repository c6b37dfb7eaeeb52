// The storage collectors of one PVE endpoint (reference/proxmox-api.md §2.8-2.10): each node's
// storage, the ZFS pools behind zfspool storage, and Ceph. ZFS and Ceph read the storage view, so
// pve-slow.ts runs them after the storage collector. Each returns whether its part changed.
import type { Storage } from '../../shared/model/state.ts'
import { CADENCE_MS } from './cadence.ts'
import type { Collector } from './collector.ts'
import { toCephCluster, usesCeph } from './pve-ceph.ts'
import { enc, onlineNodes, type SlowRun } from './pve-slow-context.ts'
import {
  markStorageUnknown,
  readZfsPoolNames,
  storageFromResources,
  toStorageList,
} from './pve-storage.ts'
import { readZfsPoolList, toZfsPool, toZfsPoolFromList, zfsPoolNameOf } from './pve-zfs.ts'

/** /nodes/{n}/storage of every node; offline or failing nodes fall back to /cluster/resources. */
export const storageCollector: Collector<SlowRun, boolean> = {
  name: 'storage',
  intervalMs: CADENCE_MS.storage,
  async collect(run) {
    const m = run.memory
    m.storageFailed.clear()
    await Promise.all(
      run.nodes.map(async ({ name, online }) => {
        const last = m.storage.get(name)
        if (!online) {
          const known = last ? markStorageUnknown(last) : undefined
          m.storageView.set(name, known ?? storageFromResources(run.resources, run.instance, name))
          return
        }
        try {
          const raw = await run.request(`/nodes/${enc(name)}/storage`)
          const list = toStorageList(raw, { instance: run.instance, node: name })
          m.storage.set(name, list)
          m.storageView.set(name, list)
          run.log.succeeded(`storage:${name}`)
        } catch (err) {
          run.log.failed(`storage:${name}`, err, { node: name })
          m.storageFailed.add(name)
          const fallback = storageFromResources(run.resources, run.instance, name, last)
          m.storageView.set(name, fallback.length > 0 ? fallback : (last ?? []))
        }
      }),
    )
    return true
  },
}

function viewHas(run: SlowRun, test: (s: Storage) => boolean): boolean {
  for (const list of run.memory.storageView.values()) if (list.some(test)) return true
  return false
}

/** ZFS pools of the nodes with zfspool storage: list, then each wanted pool in detail. */
export const zfsCollector: Collector<SlowRun, boolean> = {
  name: 'zfs',
  intervalMs: CADENCE_MS.zfs,
  async collect(run) {
    const m = run.memory
    if (!viewHas(run, (s) => s.type === 'zfspool')) {
      m.zfs.clear()
      return true
    }
    try {
      m.zfsPoolNames = readZfsPoolNames(await run.request('/storage'))
      run.log.succeeded('zfs:config')
    } catch (err) {
      // Without the config, pools are matched on the storage name (or the last config).
      run.log.failed('zfs:config', err, {})
    }
    await Promise.all(onlineNodes(run).map((node) => refreshNodeZfs(run, node)))
    return true
  },
}

// Only pools that back an available zfspool storage of the node are read in detail.
async function refreshNodeZfs(run: SlowRun, node: string): Promise<void> {
  const m = run.memory
  const wanted = new Set(
    (m.storageView.get(node) ?? [])
      .filter((s) => s.type === 'zfspool' && s.status === 'available')
      .map((s) => zfsPoolNameOf(s, m.zfsPoolNames)),
  )
  if (wanted.size === 0) {
    m.zfs.delete(node)
    return
  }
  const last = m.zfs.get(node) ?? []
  try {
    const pools = readZfsPoolList(await run.request(`/nodes/${enc(node)}/disks/zfs`))
    run.log.succeeded(`zfs:${node}`)
    const names = [...pools.keys()].filter((p) => wanted.has(p)).sort()
    const mapped = await Promise.all(
      names.map(async (name) => {
        const health = pools.get(name) ?? 'UNKNOWN'
        try {
          const detail = await run.request(`/nodes/${enc(node)}/disks/zfs/${enc(name)}`)
          run.log.succeeded(`zfs:${node}/${name}`)
          return toZfsPool(detail, name, health)
        } catch (err) {
          run.log.failed(`zfs:${node}/${name}`, err, { node, pool: name })
          return last.find((p) => p.name === name) ?? toZfsPoolFromList(name, health)
        }
      }),
    )
    m.zfs.set(node, mapped)
  } catch (err) {
    run.log.failed(`zfs:${node}`, err, { node })
  }
}

/** Ceph status and pools; only asked with rbd/cephfs storage (the paths answer 500 without). */
export const cephCollector: Collector<SlowRun, boolean> = {
  name: 'ceph',
  intervalMs: CADENCE_MS.ceph,
  async collect(run) {
    const m = run.memory
    const types = [...m.storageView.values()].flatMap((list) => list.map((s) => s.type))
    if (!usesCeph(run.resources, types)) {
      const changed = m.ceph.length > 0
      m.ceph = []
      m.cephPools = undefined
      return changed
    }
    const node = onlineNodes(run)[0]
    if (!node) return false
    const [status, pools] = await Promise.all([readCephStatus(run, node), readCephPools(run, node)])
    m.cephPools = pools
    if (status === undefined) return false
    const cluster = toCephCluster(status, pools, { instance: run.instance, now: run.now })
    m.ceph = cluster ? [cluster] : []
    return true
  },
}

// Pool usage is optional: on failure the last good list is reused.
async function readCephPools(run: SlowRun, node: string): Promise<unknown> {
  try {
    const pools = await run.request(`/nodes/${enc(node)}/ceph/pool`)
    run.log.succeeded('ceph:pools')
    return pools
  } catch (err) {
    run.log.failed('ceph:pools', err, { node })
    return run.memory.cephPools
  }
}

async function readCephStatus(run: SlowRun, node: string): Promise<unknown> {
  try {
    const status = await run.request('/cluster/ceph/status')
    run.log.succeeded('ceph:status')
    return status
  } catch {
    // Older releases, or a token limited to one node: ask that node directly.
    try {
      const status = await run.request(`/nodes/${enc(node)}/ceph/status`)
      run.log.succeeded('ceph:status')
      return status
    } catch (err) {
      run.log.failed('ceph:status', err, { node })
      return undefined
    }
  }
}
