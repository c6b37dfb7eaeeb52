// The collector thread's path (issue 27): the thread diffs each poll, the loop applies the changes
// to its copy and diffs only what derive/decorate set. Whatever the path, the published states must
// be the ones the loop's own diff publishes, and every publication's changes must lead a client
// from the last one to it. The thread's messages go through structuredClone, as postMessage does.
import { describe, expect, it } from 'vitest'
import { decodeLiveChanges, encodeLiveChanges } from '../../../../src/server/bus/live-changes.ts'
import {
  createReplicaState,
  snapshotSlots,
  type ReplicaState,
} from '../../../../src/server/bus/replica-state.ts'
import type { CollectedState } from '../../../../src/server/collect/poller.ts'
import {
  createCycleEncoder,
  createCycleReceiver,
  PART_ROWS,
  sendable,
  type CollectedChanges,
} from '../../../../src/server/collect/poller-thread-protocol.ts'
import { createLiveState, type LiveState } from '../../../../src/server/live/live-state.ts'
import { applyDelta } from '../../../../src/shared/model/delta.ts'
import type { State } from '../../../../src/shared/model/state.ts'
import { canonical } from '../bus/bus-helpers.ts'
import { makeCollected } from '../collected-fixture.ts'

const BACKUPS = PART_ROWS * 2 + 500

/** A poll with storage and more backups than a part holds; some come and go, some change. */
function poll(tick: number): CollectedState {
  const collected = makeCollected(60, tick)
  collected.storage = ['local', 'nfs', 'pbs'].map((name, i) => ({
    id: `lab-pve1-${name}`,
    name,
    used: 1_000 * (tick + i),
  })) as unknown as CollectedState['storage']
  const backups = []
  for (let i = 0; i < BACKUPS; i++) {
    if (i % 11 === 4 && tick % 2 === 1) continue
    backups.push({ id: `b${i}`, vmid: 100 + (i % 60), size: i % 97 === tick % 97 ? tick : i })
  }
  collected.storageBackups = backups as unknown as CollectedState['storageBackups']
  collected.backupsPending = tick % 3 === 0 ? ['lab'] : []
  return collected
}

/** What the alert engine and the forecasts do: new rows in a collected collection, a list of its own. */
function decorate(next: State): void {
  next.storage = next.storage.map((s) => ({
    ...s,
    forecast: { fullInDays: s.used / 1_000 } as unknown as State['storage'][0]['forecast'],
  }))
  next.activeAlerts = next.vms
    .filter((vm) => vm.cpu > 0.5)
    .map((vm) => ({ id: `cpu-${vm.id}`, level: 'warning' })) as unknown as State['activeAlerts']
}

const makeLive = (): LiveState =>
  createLiveState({
    now: () => 1_700_000_000_000,
    version: 't',
    clientCount: () => 0,
    decorate,
  })

/** The thread's messages for a poll, received on the loop. */
function throughThread(
  encoder: ReturnType<typeof createCycleEncoder>,
  receiver: ReturnType<typeof createCycleReceiver>,
  collected: CollectedState,
): { changes: CollectedChanges; messages: number } {
  const { messages, transfer } = encoder.encode(collected, {})
  let changes: CollectedChanges | null = null
  for (const message of messages) {
    const received = structuredClone(sendable(message), {
      transfer: message.kind === 'cycle' ? transfer : [],
    })
    if (received.kind === 'part') receiver.part(received.json)
    else if (received.kind === 'cycle') changes = receiver.cycle(received)
  }
  return { changes: changes!, messages: messages.length }
}

describe('live state fed by the collector thread', () => {
  it("publishes the loop's states, with changes that lead a client from each to the next", async () => {
    const loop = makeLive()
    const threaded = makeLive()
    const encoder = createCycleEncoder()
    const receiver = createCycleReceiver()
    let client: ReplicaState | null = null
    let jsonClient: State | null = null
    let seq = 0
    for (let tick = 1; tick <= 14; tick++) {
      const expected = await loop.applyCollected(poll(tick))
      const sent = throughThread(encoder, receiver, poll(tick))
      // The first poll's backups alone fill three parts.
      if (tick === 1) expect(sent.messages).toBeGreaterThanOrEqual(3)
      const { publication, collected } = await threaded.applyCollectedChanges(sent.changes)
      expect(canonical(publication.state)).toEqual(canonical(expected.state))
      expect(collected.pollingCycles).toBe(tick)
      expect(collected.storageBackups).toHaveLength(poll(tick).storageBackups.length)
      if (!client) {
        client = createReplicaState(
          structuredClone(publication.state),
          snapshotSlots(publication.state, threaded.guestSlot),
        )
        jsonClient = structuredClone(publication.state)
      } else {
        expect(publication.seq).toBe(seq + 1)
        const applied = client.apply(
          decodeLiveChanges(encodeLiveChanges(publication.seq, publication.changes!)),
        )
        expect(canonical(applied.state)).toEqual(canonical(publication.state))
        // Delta mode 1, the all-JSON delta built from the same changes.
        jsonClient = applyDelta(jsonClient!, structuredClone(publication.delta!))
        expect(canonical(jsonClient)).toEqual(canonical(publication.state))
      }
      for (const guest of [...publication.state.vms, ...publication.state.containers])
        expect(client.slot(guest.id)).toBe(threaded.guestSlot(guest.id))
      seq = publication.seq
    }
  })

  it('publishes a new thread’s first poll whole, with a gap every client sees', async () => {
    const loop = makeLive()
    const threaded = makeLive()
    let encoder = createCycleEncoder()
    const receiver = createCycleReceiver()
    for (let tick = 1; tick <= 3; tick++) {
      await loop.applyCollected(poll(tick))
      await threaded.applyCollectedChanges(throughThread(encoder, receiver, poll(tick)).changes)
    }
    const before = threaded.current()
    // A half-received cycle of the thread that died (a whole estate, in parts) is dropped with it.
    const [first] = createCycleEncoder().encode(poll(4), {}).messages
    if (first?.kind !== 'part') throw new Error('expected a part')
    receiver.part(JSON.stringify(first.part))
    receiver.reset()
    threaded.restartCollected()
    encoder = createCycleEncoder()
    const expected = await loop.applyCollected(poll(5))
    const { publication } = await threaded.applyCollectedChanges(
      throughThread(encoder, receiver, poll(5)).changes,
    )
    expect(publication.seq).toBeGreaterThanOrEqual(before.seq + 2)
    expect(publication.changes).toBeNull()
    expect(canonical(publication.state)).toEqual(canonical(expected.state))
    // And it goes on by deltas from there.
    const next = await threaded.applyCollectedChanges(
      throughThread(encoder, receiver, poll(6)).changes,
    )
    expect(next.publication.seq).toBe(publication.seq + 1)
    expect(canonical(next.publication.state)).toEqual(
      canonical((await loop.applyCollected(poll(6))).state),
    )
  })
})
