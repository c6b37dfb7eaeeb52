// The poller in its own thread against the real simulator: the loop's copy holds what the
// simulator has, the status getters answer from the thread's mirror, history reads go through the
// thread's clients, and a thread that dies is started again, its first poll published whole.
import { ownNice, threadNices } from '../nice.ts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  createThreadedPoller,
  type ThreadedPoller,
} from '../../../../src/server/collect/poller-thread.ts'
import { createLiveState, type LiveState } from '../../../../src/server/live/live-state.ts'
import { startSimulator, type Simulator } from '../../../../src/server/sim/index.ts'
import { simEndpoint } from '../sim-endpoint.ts'
import { AppError } from '../../../../src/shared/model/errors.ts'

let sim: Simulator
let poller: ThreadedPoller
let live: LiveState
let restarts = 0
const errors: string[] = []

beforeAll(async () => {
  sim = await startSimulator({ seed: 11, clusters: 1, nodesPerCluster: 3, guestsPerNode: 40 })
  live = createLiveState({ now: Date.now, version: 't', clientCount: () => 0 })
  poller = createThreadedPoller({
    intervalMs: 3_600_000,
    onChanges: (changes) => void live.applyCollectedChanges(changes),
    onRestart: () => {
      restarts++
      live.restartCollected()
    },
    log: {
      info: () => undefined,
      warn: () => undefined,
      error: (_obj, msg) => void errors.push(msg),
    },
  })
  poller.setEndpoints([simEndpoint(sim.clusters[0]!)])
})

afterAll(async () => {
  await poller.close()
  await sim.stop()
})

/** Poll until the live state holds every guest of the simulator, with the latest ticks. */
async function pollUntilComplete(): Promise<void> {
  await vi.waitFor(
    async () => {
      await poller.pollNow()
      const { state } = await live.republish()
      expect(state.vms.length + state.containers.length).toBe(sim.guestCount())
    },
    { timeout: 20_000, interval: 20 },
  )
}

describe('the poller in a thread', () => {
  it('brings the estate to the loop, and its status, with every guest the simulator has', async () => {
    expect(poller.endpointStatus('sim-0')).toBe('pending')
    await pollUntilComplete()
    expect(poller.endpointStatus('sim-0')).toBe('connected')
    expect(poller.endpointError('sim-0')).toBeUndefined()
    const info = poller.endpointInfo('sim-0')!
    expect(info.isCluster).toBe(true)
    expect(info.members.map((m) => m.NodeName).sort()).toEqual(
      [...sim.clusters[0]!.nodeNames].sort(),
    )
    const { state } = live.current()
    expect(state.nodes.map((n) => n.name).sort()).toEqual([...sim.clusters[0]!.nodeNames].sort())
    // Every guest has its metrics-frame slot on the loop, none shared.
    const slots = [...state.vms, ...state.containers].map((g) => live.guestSlot(g.id))
    expect(slots.every((s) => typeof s === 'number')).toBe(true)
    expect(new Set(slots).size).toBe(slots.length)
  })

  it.runIf(process.platform === 'linux')('polls at a lower priority than the loop', async () => {
    await pollUntilComplete()
    expect(threadNices('self')).toContain(Math.min(19, ownNice() + 10))
  })

  it('reflects a change in the simulator at the next poll', async () => {
    const before = live.current()
    sim.tick()
    await poller.pollNow()
    await vi.waitFor(() => expect(live.current().seq).toBeGreaterThan(before.seq))
    const cpu = (s: typeof before.state) => s.vms.map((g) => g.cpu).join()
    expect(cpu(live.current().state)).not.toBe(cpu(before.state))
  })

  it("reads history through the thread's client, and passes its errors on as AppErrors", async () => {
    const endpoint = poller.historyClient(sim.clusters[0]!.name)!
    expect(endpoint.status).toBe('connected')
    const node = sim.clusters[0]!.nodeNames[0]!
    const rows = await endpoint.client.get<unknown[]>(`/nodes/${node}/rrddata`, {
      timeframe: 'hour',
      cf: 'AVERAGE',
    })
    expect(Array.isArray(rows) && rows.length).toBeGreaterThan(0)
    const failed = await endpoint.client.get('/nodes/no-such-node/rrddata').catch((e) => e)
    expect(failed).toBeInstanceOf(AppError)
    expect((failed as AppError).code).toMatch(/^PVE_/)
    const aborted = new AbortController()
    aborted.abort()
    await expect(endpoint.client.get('/version', {}, aborted.signal)).rejects.toThrow()
    // Aborted while the thread reads: the caller hears at once.
    const later = new AbortController()
    const pending = endpoint.client.get('/cluster/resources', {}, later.signal)
    later.abort(new Error('gave up'))
    await expect(pending).rejects.toThrow('gave up')
    expect(poller.historyClient('unknown')).toBeUndefined()
  })

  it('starts a thread that died again, and publishes its first poll as a whole new state', async () => {
    const before = live.current()
    await poller.terminateThread()
    await vi.waitFor(() => expect(restarts).toBe(1), { timeout: 10_000 })
    expect(errors).toContain('the collector thread exited; starting it again')
    await pollUntilComplete()
    const after = live.current()
    expect(after.seq).toBeGreaterThanOrEqual(before.seq + 2)
    expect(poller.endpointStatus('sim-0')).toBe('connected')
  })
})
