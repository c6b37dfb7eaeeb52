import { afterEach, describe, expect, it } from 'vitest'
import type { CollectedState } from '../../../../src/server/collect/poller.ts'
import { makeCollected } from '../collected-fixture.ts'
import { RFC3339, T, withBackups } from '../timed-collected-fixture.ts'
import { startHubHarness, type HubHarness, type Msg } from './hub-harness.ts'

/** The backup time fields of a state message. */
function backupTimes(msg: Msg) {
  const state = msg.data as Record<string, unknown>
  const pbs = state.pbsBackups as Array<Record<string, unknown>>
  // The plain dialect groups the PVE backup collections as the reference's pveBackups object.
  const pve = (state.pveBackups ?? state) as Record<string, Array<Record<string, unknown>>>
  return {
    backupTime: pbs[0]!.backupTime,
    storageTime: pve.storageBackups![0]!.time,
    ctime: pve.storageBackups![0]!.ctime,
    snapshotTime: pve.guestSnapshots![0]!.time,
    start: pve.backupTasks!.map((t) => t.startTime),
    end: pve.backupTasks!.map((t) => t.endTime),
    // Also strings in both of the reference's state forms (§2.6, §2.7).
    pbsLastSeen: (state.pbs as Array<Record<string, unknown>>)[0]!.lastSeen,
    diskLastChecked: (state.physicalDisks as Array<Record<string, unknown>>)[0]!.lastChecked,
  }
}

let harness: HubHarness
afterEach(() => harness.close())

describe('socket hub: time fields per dialect', () => {
  it('sends backup, task, PBS and disk times as RFC 3339 strings to a plain client (wire-protocol §2)', async () => {
    harness = await startHubHarness({ warn: () => {} })
    await harness.live.applyCollected(withBackups(1))
    const client = await harness.connect('/ws')
    await client.waitFor((m) => m.some((x) => x.type === 'initialState'))
    await harness.live.applyCollected(withBackups(2))
    await client.waitFor((m) => m.some((x) => x.type === 'rawData'))
    client.ws.send(JSON.stringify({ type: 'requestData' }))
    await client.waitFor((m) => m.filter((x) => x.type === 'rawData').length === 2)
    const states = client.messages.filter((m) => m.type === 'initialState' || m.type === 'rawData')
    expect(states).toHaveLength(3)
    for (const msg of states) {
      const times = backupTimes(msg)
      expect(times).toEqual({
        backupTime: '2025-10-11T02:00:00Z',
        storageTime: '2025-10-11T02:00:02Z',
        // ctime stays epoch seconds beside the string time, as the reference sends it.
        ctime: T + 2,
        snapshotTime: '2025-10-11T01:59:00Z',
        start: ['2025-10-11T02:00:00Z', '2025-10-11T02:05:00Z'],
        // A running task ends at Go's zero time.
        end: ['2025-10-11T02:04:31Z', '0001-01-01T00:00:00Z'],
        pbsLastSeen: '2025-10-11T02:00:05Z',
        diskLastChecked: '2025-10-11T02:00:06.500Z',
      })
      for (const value of [times.backupTime, times.storageTime, times.snapshotTime])
        expect(value).toMatch(RFC3339)
      // The instant survives: the reference UI parses these with new Date(...).
      expect(Date.parse(times.backupTime as string) / 1000).toBe(T)
    }
    client.ws.close()
  })

  it('keeps epoch seconds on the delta dialect', async () => {
    harness = await startHubHarness({ warn: () => {} })
    await harness.live.applyCollected(withBackups(1))
    const client = await harness.connect('/ws?deltas=1')
    await client.waitFor((m) => m.some((x) => x.type === 'initialState'))
    expect(backupTimes(client.messages.find((m) => m.type === 'initialState')!)).toEqual({
      backupTime: T,
      storageTime: undefined,
      ctime: T + 2,
      snapshotTime: T - 60,
      start: [T, T + 300],
      end: [T + 271, 0],
      pbsLastSeen: (T + 5) * 1000,
      diskLastChecked: (T + 6) * 1000 + 500,
    })
    client.ws.close()
  })
})

describe('socket hub: PVE backup collections per dialect', () => {
  it('groups them as pveBackups for a plain client, without our top-level keys', async () => {
    harness = await startHubHarness({ warn: () => {} })
    await harness.live.applyCollected(withBackups(1))
    const client = await harness.connect('/ws')
    await client.waitFor((m) => m.some((x) => x.type === 'initialState'))
    const state = client.messages.find((m) => m.type === 'initialState')!.data as Record<
      string,
      unknown
    >
    expect(Object.keys(state.pveBackups as object).sort()).toEqual([
      'backupTasks',
      'guestSnapshots',
      'storageBackups',
    ])
    for (const key of ['storageBackups', 'guestSnapshots', 'backupTasks']) {
      expect(state).not.toHaveProperty(key)
    }
    client.ws.close()
  })

  it('sends only the changed and removed backup records in a delta', async () => {
    harness = await startHubHarness({ warn: () => {} })
    const first = withBackups(1)
    await harness.live.applyCollected(first)
    const client = await harness.connect('/ws?deltas=1')
    await client.waitFor((m) => m.some((x) => x.type === 'initialState'))
    const initial = client.messages.find((m) => m.type === 'initialState')!.data as Record<
      string,
      unknown
    >
    expect(initial).not.toHaveProperty('pveBackups')
    expect(initial.storageBackups).toHaveLength(1)
    const [kept] = first.storageBackups
    const added = { ...kept!, id: 'lab-pve1-local:backup/vz-202.tar.zst', vmid: 202 }
    await harness.live.applyCollected({
      ...withBackups(2),
      storageBackups: [{ ...kept!, size: 999 }, added],
      // The same array as before: the diff skips it.
      guestSnapshots: first.guestSnapshots,
      // The same task objects, one fewer.
      backupTasks: first.backupTasks.slice(1),
    })
    await client.waitFor((m) => m.some((x) => x.type === 'delta'))
    const delta = client.messages.find((m) => m.type === 'delta')!.data as {
      upsert?: Record<string, unknown[]>
      remove?: Record<string, string[]>
    }
    expect(delta.upsert?.storageBackups).toEqual([{ id: kept!.id, size: 999 }, added])
    expect(delta.upsert).not.toHaveProperty('guestSnapshots')
    expect(delta.upsert).not.toHaveProperty('backupTasks')
    expect(delta.remove?.backupTasks).toEqual(['lab-UPID:a'])
    expect(JSON.stringify(delta)).not.toContain('pveBackups')
    client.ws.close()
  })
})

// Nodes of a poll at `at`: what a guest's freshness is read from.
function polledAt(tick: number, at: number): CollectedState {
  const collected = makeCollected(6, tick)
  return { ...collected, nodes: collected.nodes.map((n) => ({ ...n, lastSeen: at })) }
}

type Wire = { data: { vms?: Array<Record<string, unknown>> } & Record<string, unknown> }

describe('socket hub: guest lastSeen per dialect', () => {
  it('gives plain clients every guest with the lastSeen of the poll that read it', async () => {
    harness = await startHubHarness({ warn: () => {} })
    await harness.live.applyCollected(polledAt(2, 20_000))
    const client = await harness.connect('/ws')
    await client.waitFor((m) => m.some((x) => x.type === 'initialState'))
    await harness.live.applyCollected(polledAt(4, 40_000))
    await client.waitFor((m) => m.some((x) => x.type === 'rawData'))
    const first = client.messages.find((m) => m.type === 'initialState') as unknown as Wire
    const raw = client.messages.find((m) => m.type === 'rawData') as unknown as Wire
    expect(first.data.vms!.length).toBeGreaterThan(0)
    expect(first.data.vms!.every((g) => g.lastSeen === 20_000)).toBe(true)
    expect(raw.data.vms!.every((g) => g.lastSeen === 40_000)).toBe(true)
    client.ws.close()
  })

  it('leaves lastSeen off guests on the delta dialect, so a poll that changed nothing else sends no guests', async () => {
    harness = await startHubHarness({ warn: () => {} })
    await harness.live.applyCollected(polledAt(2, 20_000))
    const client = await harness.connect('/ws?deltas=1')
    await client.waitFor((m) => m.some((x) => x.type === 'initialState'))
    const first = client.messages.find((m) => m.type === 'initialState') as unknown as Wire
    expect(first.data.vms!.length).toBeGreaterThan(0)
    expect(first.data.vms!.some((g) => 'lastSeen' in g)).toBe(false)
    // The same guests read by a later poll: only the nodes' lastSeen (and the poll figures) move.
    await harness.live.applyCollected({ ...polledAt(2, 30_000), lastUpdate: 1_700_000_030_000 })
    await client.waitFor((m) => m.some((x) => x.type === 'delta'))
    const delta = client.messages.find((m) => m.type === 'delta') as unknown as {
      data: { upsert?: Record<string, unknown[]>; remove?: Record<string, unknown[]> }
    }
    expect(delta.data.upsert?.vms ?? []).toEqual([])
    expect(delta.data.upsert?.containers ?? []).toEqual([])
    expect(delta.data.upsert?.nodes).toEqual(
      expect.arrayContaining([expect.objectContaining({ lastSeen: 30_000 })]),
    )
    client.ws.close()
  })
})
