import { describe, expect, it } from 'vitest'
import { createPublicationFrames } from '../../../../src/server/hub/hub-frames.ts'
import { createLiveState, type Publication } from '../../../../src/server/live/live-state.ts'
import { makeCollected } from '../collected-fixture.ts'

async function twoPublications(): Promise<[Publication, Publication]> {
  const live = createLiveState({ now: () => 1_700_000_000_000, version: 't', clientCount: () => 0 })
  const first = await live.applyCollected(makeCollected(30, 1))
  const second = await live.applyCollected(makeCollected(30, 2))
  return [first, second]
}

describe('publication frames', () => {
  it('lets go of the whole-state frames of a retired publication and keeps its deltas', async () => {
    const [, p] = await twoPublications()
    const frames = createPublicationFrames()
    const raw = frames.raw(p)
    const full = frames.full(p)
    const plainFull = frames.plainFull(p)
    const plainState = frames.plainState(p)
    const delta = frames.delta(p)
    const delta2 = frames.delta2(p, true)
    const lean = frames.delta2(p, false)
    // Cached while current: every client of the publication shares one frame.
    expect(frames.raw(p)).toBe(raw)
    expect(frames.full(p)).toBe(full)
    frames.retire(p)
    // The deltas stay for clients catching up; the whole states are no longer held...
    expect(frames.delta(p)).toBe(delta)
    expect(frames.delta2(p, true)).toBe(delta2)
    expect(frames.delta2(p, false)).toBe(lean)
    expect(frames.raw(p)).not.toBe(raw)
    expect(frames.full(p)).not.toBe(full)
    expect(frames.plainFull(p)).not.toBe(plainFull)
    expect(frames.plainState(p)).not.toBe(plainState)
    // ...and built again they are the same bytes.
    expect((await frames.raw(p)).equals(await raw)).toBe(true)
    expect((await frames.full(p)).equals(await full)).toBe(true)
    expect((await frames.plainFull(p)).equals(await plainFull)).toBe(true)
  })
})
