// The poller against the real simulator (src/server/sim): backup jobs, the guests in no job and
// the vzdump task logs (issue 26) arrive in the collected state, the failed task linked to its
// job with its per-guest results and log tail.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  createPoller,
  type CollectedState,
  type MonitoredEndpoint,
} from '../../../../src/server/collect/poller.ts'
import { startSimulator, type Simulator } from '../../../../src/server/sim/index.ts'

let sim: Simulator

beforeAll(async () => {
  sim = await startSimulator({
    seed: 11,
    clusters: 1,
    nodesPerCluster: 3,
    guestsPerNode: 20,
    tickMs: 0,
  })
})

afterAll(async () => {
  await sim.stop()
})

describe('poller against the simulator: backup jobs', () => {
  it('collects jobs, coverage and a failed task with its guests and log tail', async () => {
    const cluster = sim.clusters[0]!
    const states: CollectedState[] = []
    const poller = createPoller({ onState: (s) => states.push(s) })
    const endpoint: MonitoredEndpoint = {
      id: 'sim-0',
      name: cluster.name,
      type: 'pve',
      host: cluster.url,
      auth: { kind: 'token', tokenId: cluster.tokenId, secret: cluster.tokenSecret },
      verifySSL: false,
      fingerprint: cluster.fingerprint,
    }
    poller.setEndpoints([endpoint])
    try {
      await vi.waitFor(
        async () => {
          await poller.pollNow()
          const state = states.at(-1)!
          expect(state.backupJobs.length).toBeGreaterThan(0)
          expect(state.backupCoverage).toHaveLength(1)
          expect(state.backupTasks.some((t) => t.status === 'job errors' && t.logTail)).toBe(true)
        },
        { timeout: 25_000, interval: 50 },
      )
      const state = states.at(-1)!
      const nightly = state.backupJobs[0]!
      expect(nightly).toMatchObject({ instance: cluster.name, all: true, enabled: true })
      expect(state.backupJobs.some((j) => !j.enabled)).toBe(true)
      expect(state.backupCoverage[0]!.notBackedUp.length).toBeGreaterThan(0)
      const failed = state.backupTasks.find((t) => t.status === 'job errors' && t.logTail)!
      expect(failed.jobId).toBe(nightly.jobId)
      expect(failed.storage).toBe(nightly.storage)
      expect(failed.guests?.some((g) => !g.ok && g.error)).toBe(true)
      expect(failed.logTail?.at(-1)).toBe('TASK ERROR: job errors')
      expect(nightly.lastRun?.upid).toMatch(/^UPID:/)
      const guests = [...state.vms, ...state.containers]
      const tagged = guests.filter((g) => (g.tags ?? []).includes('production'))
      const uncovered = new Set(state.backupCoverage[0]!.notBackedUp.map((g) => g.vmid))
      expect(tagged.some((g) => uncovered.has(g.vmid))).toBe(true)
    } finally {
      await poller.stop()
    }
  })
})
