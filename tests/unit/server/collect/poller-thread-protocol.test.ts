// The parts a cycle's delta travels in from the collector thread: none over the bound, joined back
// into the same delta, rows in order, scalars and the slots of new guests kept.
import { describe, expect, it } from 'vitest'
import {
  createDeltaJoiner,
  splitDelta,
} from '../../../../src/server/collect/poller-thread-protocol.ts'
import type { StateDelta } from '../../../../src/shared/model/messages.ts'

const rows = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, n: i }))

function sizeOf(part: Pick<StateDelta, 'upsert' | 'remove' | 'guestSlots'>): number {
  let size = Object.keys(part.guestSlots ?? {}).length
  for (const list of Object.values(part.upsert ?? {})) size += list.length
  for (const list of Object.values(part.remove ?? {})) size += list.length
  return size
}

describe('a cycle delta in parts', () => {
  it.each([1, 7, 100, 1_000])('splits at %i rows and joins back to the same delta', (bound) => {
    const guestSlots: Record<string, number> = {}
    for (let i = 0; i < 250; i++) guestSlots[`vm${i}`] = i
    const delta: StateDelta = {
      upsert: { vms: rows('vm', 250), storageBackups: rows('b', 2_345), nodes: rows('n', 3) },
      remove: { storageBackups: ['x1', 'x2', 'x3'], containers: ['ct9'] },
      guestSlots,
      scalars: { lastUpdate: 42, backupsPending: ['lab'] },
    }
    const { parts, rest } = splitDelta(delta, bound)
    for (const part of [...parts, rest]) expect(sizeOf(part)).toBeLessThanOrEqual(bound)
    expect(parts.every((p) => !('scalars' in p))).toBe(true)
    const joiner = createDeltaJoiner()
    for (const part of structuredClone(parts)) joiner.add(part)
    expect(joiner.finish(structuredClone(rest))).toEqual(delta)
    // The joiner starts afresh for the next cycle.
    expect(joiner.finish(null)).toBeNull()
  })

  it('sends a delta of scalars alone in one message', () => {
    const { parts, rest } = splitDelta({ scalars: { lastUpdate: 1 } })
    expect(parts).toEqual([])
    expect(createDeltaJoiner().finish(rest)).toEqual({ scalars: { lastUpdate: 1 } })
  })
})
