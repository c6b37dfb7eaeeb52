// The whole simulated estate and its clock: builds the model, advances it one tick at a time, and
// exposes the control operations. No I/O here; index.ts puts HTTPS servers in front of it.

import type { SimClusterModel } from './model.ts'
import { buildEstate } from './build-estate.ts'
import type { EstateShape } from './build-estate.ts'
import { updateMetrics } from './metrics.ts'
import { applyEvents, setNodeState } from './events.ts'
import { advanceBackups } from './backups.ts'
import { advanceCeph } from './ceph.ts'
import { applyScenarioMetrics, applyScenarioNodes } from './alert-scenarios.ts'
import { recordTick } from './history/recorder.ts'

/** The model of every cluster plus the operations that change it. */
export interface Estate {
  clusters: SimClusterModel[]
  /** Advances every cluster to `nowMs` (at least `stepMs` after the previous tick when omitted). */
  tick(nowMs?: number): void
  setNodeOnline(cluster: string, node: string, online: boolean): void
  guestCount(): number
}

/** Builds an estate at the clock's current time and settles its first metrics. */
export function createEstate(shape: EstateShape, clockMs: () => number, stepMs: number): Estate {
  let lastMs = clockMs()
  const clusters = buildEstate(shape, lastMs)
  const countGuests = (): number => {
    let total = 0
    for (const cluster of clusters) total += cluster.guests.length
    return total
  }
  // A zero-length step fills in cpu/mem/load so the very first response already looks live.
  for (const cluster of clusters) {
    updateMetrics(cluster, lastMs, 0)
    applyScenarioMetrics(cluster, lastMs)
  }

  return {
    clusters,
    tick(nowMs) {
      // Manual ticks in tests often come faster than the clock: simulated time still moves one step.
      const now = nowMs ?? Math.max(clockMs(), lastMs + stepMs)
      const dtSec = Math.max(0, (now - lastMs) / 1000)
      lastMs = Math.max(lastMs, now)
      const scale = { clusters: clusters.length, guests: countGuests() }
      for (const cluster of clusters) {
        applyEvents(cluster, lastMs, dtSec, scale)
        // The scripted outage after the random events, the scripted gauges after the random ones.
        applyScenarioNodes(cluster, lastMs)
        updateMetrics(cluster, lastMs, dtSec)
        applyScenarioMetrics(cluster, lastMs)
        recordTick(cluster, lastMs, dtSec)
        advanceBackups(cluster, lastMs)
        advanceCeph(cluster, lastMs, dtSec)
        cluster.lastTickMs = lastMs
        cluster.revision++
      }
    },
    setNodeOnline(clusterName, nodeName, online) {
      const cluster = clusters.find((c) => c.name === clusterName)
      const index = cluster?.nodes.findIndex((n) => n.name === nodeName) ?? -1
      if (cluster === undefined || index < 0)
        throw new Error(`Unknown node ${clusterName}/${nodeName}`)
      setNodeState(cluster, index, online, lastMs)
      if (online) {
        updateMetrics(cluster, lastMs, 0)
        applyScenarioMetrics(cluster, lastMs)
      }
      cluster.revision++
    },
    guestCount: countGuests,
  }
}
