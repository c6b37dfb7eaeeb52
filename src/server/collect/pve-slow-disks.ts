// The physical disks of one PVE endpoint (reference/proxmox-api.md §2.11): disks/list of every
// online node, and on every SMART round a bounded, rotating batch of disks/smart for temperatures.
import type { PhysicalDisk } from '../../shared/model/state.ts'
import { CADENCE_MS, isDue } from './cadence.ts'
import type { Collector } from './collector.ts'
import { mapLimited } from './limiter.ts'
import { readSmartTemperature, toPhysicalDisks } from './pve-disks.ts'
import {
  enc,
  onlineNodes,
  SLOW_CONCURRENCY,
  SMART_MAX_PER_ROUND,
  type SlowRun,
} from './pve-slow-context.ts'

/** disks/list per online node (it runs SMART itself and can wake spun-down disks: rarely). */
export const disksCollector: Collector<SlowRun, boolean> = {
  name: 'disks',
  intervalMs: CADENCE_MS.disks,
  async collect(run) {
    const m = run.memory
    // SMART rides on a disks refresh, on its own, longer cadence.
    const smartRound = isDue(m.smartAt, CADENCE_MS.smart, run.now, run.pollIntervalMs)
    if (smartRound) m.smartAt = run.now
    await Promise.all(
      onlineNodes(run).map(async (node) => {
        try {
          const raw = await run.request(`/nodes/${enc(node)}/disks/list`)
          m.disks.set(node, { raw: Array.isArray(raw) ? raw : [], at: run.now })
          run.log.succeeded(`disks:${node}`)
        } catch (err) {
          run.log.failed(`disks:${node}`, err, { node })
        }
      }),
    )
    if (smartRound) await refreshTemperatures(run)
    return true
  },
}

// Bounded and rotating: at most SMART_MAX_PER_ROUND calls, continuing where the last round ended.
async function refreshTemperatures(run: SlowRun): Promise<void> {
  const m = run.memory
  const online = new Set(onlineNodes(run))
  const disks = buildDisks(run).filter((d) => online.has(d.node))
  if (disks.length === 0) return
  const count = Math.min(SMART_MAX_PER_ROUND, disks.length)
  const start = m.smartOffset % disks.length
  const batch = Array.from({ length: count }, (_, i) => disks[(start + i) % disks.length]!)
  m.smartOffset = (start + count) % disks.length
  await mapLimited(batch, SLOW_CONCURRENCY, async ({ node, devPath }) => {
    try {
      const smart = await run.request(`/nodes/${enc(node)}/disks/smart`, { disk: devPath })
      const celsius = readSmartTemperature(smart)
      let temps = m.temperatures.get(node)
      if (!temps) m.temperatures.set(node, (temps = new Map()))
      if (celsius === undefined) temps.delete(devPath)
      else temps.set(devPath, celsius)
      run.log.succeeded(`smart:${node}`)
    } catch (err) {
      run.log.failed(`smart:${node}`, err, { node, disk: devPath })
    }
  })
}

/** The disks of the endpoint's nodes from the last good reads, with the last temperatures. */
export function buildDisks(run: Pick<SlowRun, 'instance' | 'nodes' | 'memory'>): PhysicalDisk[] {
  const m = run.memory
  return run.nodes.flatMap(({ name: node }) => {
    const read = m.disks.get(node)
    if (!read) return []
    const diskCtx = { instance: run.instance, node, now: read.at }
    return toPhysicalDisks(read.raw, diskCtx, m.temperatures.get(node))
  })
}
