// A web node's replica applies the collector's changes (as the bus carries them) instead of
// diffing: after every poll it must hold the collector's state, the collector's slots, and
// produce the same frames (delta mode 2's metrics, delta mode 1's JSON) without touching the
// states it published before.
import { describe, expect, it } from 'vitest'
import { decodeLiveChanges, encodeLiveChanges } from '../../../../src/server/bus/live-changes.ts'
import {
  createReplicaState,
  snapshotSlots,
  type ReplicaState,
} from '../../../../src/server/bus/replica-state.ts'
import type { CollectedState } from '../../../../src/server/collect/poller.ts'
import { createLiveState, createPublication } from '../../../../src/server/live/live-state.ts'
import { encodeMetricsFrame } from '../../../../src/shared/model/guest-metrics.ts'
import { createEmptyState, type State } from '../../../../src/shared/model/state.ts'
import { makeCollected } from '../collected-fixture.ts'
import { canonical } from './bus-helpers.ts'

/** A poll with some twists on the fixture's: a guest that moves between vms and containers, numbers that turn into strings. */
function twisted(tick: number): CollectedState {
  const collected = makeCollected(80, tick)
  if (tick % 3 === 0 && collected.vms.length) {
    const [moved] = collected.vms.splice(0, 1)
    collected.containers = [...collected.containers, { ...moved!, type: 'lxc' }]
  }
  if (tick % 5 === 0) {
    const guest = collected.containers[2]!
    collected.containers[2] = { ...guest, memory: { ...guest.memory, free: 7 } }
  }
  return collected
}

const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

describe('replica state', () => {
  it("holds the collector's state, slots and frames after every poll, guests coming and going", async () => {
    const live = createLiveState({
      now: () => 1_700_000_000_000,
      version: 't',
      clientCount: () => 0,
    })
    let replica: ReplicaState | null = null
    let before: { state: State; json: string } | null = null
    for (let tick = 1; tick <= 24; tick++) {
      const p = await live.applyCollected(twisted(tick))
      if (!replica) {
        replica = createReplicaState(viaJson(p.state), snapshotSlots(p.state, live.guestSlot))
        continue
      }
      const applied = replica.apply(decodeLiveChanges(encodeLiveChanges(p.seq, p.changes!)))
      expect(canonical(applied.state)).toEqual(canonical(p.state))
      for (const guest of [...p.state.vms, ...p.state.containers])
        expect(replica.slot(guest.id)).toBe(live.guestSlot(guest.id))
      // The frames of both delta modes, as the collector's hub would build them.
      const mine = createPublication(applied.state, p.seq, applied.changes)
      expect(mine.delta).toEqual(p.delta)
      expect(applied.changes.delta).toEqual(viaJson(p.changes!.delta))
      const theirs = p.changes!.metrics
      expect(applied.changes.metrics && encodeMetricsFrame(p.seq, applied.changes.metrics)).toEqual(
        theirs && encodeMetricsFrame(p.seq, theirs),
      )
      // The previous state is as it was published (first loads may still be reading it).
      if (before) expect(JSON.stringify(before.state)).toBe(before.json)
      before = { state: applied.state, json: JSON.stringify(applied.state) }
    }
  })

  it('keeps received rows as they came: a new row without its null fields, shared lists and strings equal', () => {
    const empty = viaJson(createEmptyState(0, 't'))
    const replica = createReplicaState(empty, { vms: [], containers: [] })
    const files = ['index.json.blob', 'drive-scsi0.img.fidx']
    const row = (vmid: string, extra: Record<string, unknown>) => ({
      id: `pbs-store--vm-${vmid}-1`,
      instance: 'pbs-main',
      datastore: 'store',
      namespace: '',
      backupType: 'vm',
      vmid,
      backupTime: 1,
      size: 10,
      protected: false,
      verified: true,
      encrypted: false,
      files: [...files],
      ...extra,
    })
    const first = replica.apply({
      delta: { upsert: { pbsBackups: [row('100', { comment: null }), row('101', {})] } },
      metrics: null,
    })
    expect(first.state.pbsBackups).toEqual([row('100', {}), row('101', {})])
    expect(first.state.pbsBackups[0]).not.toHaveProperty('comment')
    const second = replica.apply({
      delta: {
        upsert: { pbsBackups: [{ id: 'pbs-store--vm-101-1', files: ['index.json.blob'] }] },
      },
      metrics: null,
    })
    expect(second.state.pbsBackups[1]!.files).toEqual(['index.json.blob'])
    expect(second.state.pbsBackups[0]!.files).toEqual(files)
    // The earlier state is untouched by the change that followed it.
    expect(first.state.pbsBackups[1]!.files).toEqual(files)
    expect(empty.pbsBackups).toEqual([])
  })

  it('refuses a malformed body', () => {
    expect(() => decodeLiveChanges(new Uint8Array([1]))).toThrow()
    expect(() => decodeLiveChanges(new Uint8Array([200, 0, 0, 0, 123]))).toThrow()
  })
})
