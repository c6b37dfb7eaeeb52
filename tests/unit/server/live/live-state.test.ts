// The live state's "first data" markers: what the UI reads to tell loading from empty.
import { describe, expect, it } from 'vitest'
import { createLiveState } from '../../../../src/server/live/live-state.ts'
import { makeCollected } from '../collected-fixture.ts'

function setup() {
  return createLiveState({ now: () => 1_700_000_000_000, version: 'test', clientCount: () => 0 })
}

describe('createLiveState', () => {
  it('serves an empty state with no poll and no backup read before the first poll', () => {
    const { state } = setup().current()
    expect(state.lastUpdate).toBe(0)
    expect(state.backupsCollectedAt).toBe(0)
  })

  it('marks backups collected at the first poll that read them, and keeps that time', async () => {
    const live = setup()
    const first = await live.applyCollected({ ...makeCollected(4, 1), backupsCollected: false })
    expect(first.state.lastUpdate).toBeGreaterThan(0)
    expect(first.state.backupsCollectedAt).toBe(0)
    const second = await live.applyCollected(makeCollected(4, 2))
    expect(second.state.backupsCollectedAt).toBe(second.state.lastUpdate)
    expect(second.delta?.scalars?.backupsCollectedAt).toBe(second.state.lastUpdate)
    // A source added later has not been read yet: the marker stays, the tab keeps its content.
    const third = await live.applyCollected({ ...makeCollected(4, 3), backupsCollected: false })
    expect(third.state.backupsCollectedAt).toBe(second.state.lastUpdate)
  })

  it('publishes a received state with its own sequence and the local client count', async () => {
    const collector = setup()
    const web = createLiveState({
      now: () => 1_700_000_000_000,
      version: 'test',
      clientCount: () => 7,
    })
    await collector.applyCollected(makeCollected(4, 1))
    await collector.applyCollected(makeCollected(4, 2))
    const first = await web.replaceState(collector.current().state)
    expect(first.seq).toBe(1)
    expect(first.state.vms).toEqual(collector.current().state.vms)
    expect(first.state.stats.webSocketClients).toBe(7)
    // Through the same diff: the next one carries only what changed, and nothing is a no-op.
    const second = await web.replaceState(
      (await collector.applyCollected(makeCollected(4, 3))).state,
    )
    expect(second.seq).toBe(2)
    expect(second.delta?.upsert?.vms?.length).toBeGreaterThan(0)
    expect(await web.replaceState(collector.current().state)).toBe(second)
  })
})
