// The server's per-guest backup summary builder (src/server/backup-health): when it rebuilds,
// what it keeps, and its place in the live state (built in the background, handed to the alert
// engine and the clients by the next poll; never on web nodes).
import { describe, expect, it } from 'vitest'
import { createEmptyState, type State } from '../../../../src/shared/model/state.ts'
import { createGuestBackupBuilder } from '../../../../src/server/backup-health/guest-backups.ts'
import { createBackupHealthDerive } from '../../../../src/server/backup-health/wiring.ts'
import { createLiveState } from '../../../../src/server/live/live-state.ts'
import { makeCollected } from '../collected-fixture.ts'
import { makeGuest } from '../../shared/views/guest-fixtures.ts'
import { makePbsBackup, makeStorageBackup } from '../../shared/views/backups-fixtures.ts'

function makeState(patch: Partial<State> = {}): State {
  return {
    ...createEmptyState(1, 'test'),
    vms: [makeGuest(100), makeGuest(101)],
    storageBackups: [makeStorageBackup(100, 1000)],
    pbsBackups: [makePbsBackup('101', 2000)],
    ...patch,
  }
}

const silent = { error: () => undefined }

describe('createGuestBackupBuilder', () => {
  it('fills guestBackups from the state inputs', async () => {
    const next = makeState()
    const figures = await createGuestBackupBuilder().derive(next)
    expect(figures.outcome).toBe('built')
    expect(next.guestBackups.map((summary) => [summary.id, summary.newest])).toEqual([
      ['lab-pve1-100', 1000],
      ['lab-pve1-101', 2000],
    ])
  })

  it('keeps unchanged summaries and the array itself when nothing read changed', async () => {
    const builder = createGuestBackupBuilder()
    const first = makeState()
    await builder.derive(first)
    // A poll with new guest objects (metrics) but the same fields the summary reads.
    const polled = { ...first, vms: first.vms.map((guest) => ({ ...guest, cpu: 0.9 })) }
    expect((await builder.derive(polled)).outcome).toBe('unchanged')
    expect(polled.guestBackups).toBe(first.guestBackups)
    // A new backup of 100: only 100's summary is a new object.
    const backedUp = {
      ...polled,
      storageBackups: [...polled.storageBackups, makeStorageBackup(100, 3000)],
    }
    const figures = await builder.derive(backedUp)
    expect(figures).toMatchObject({ outcome: 'built', regrouped: true })
    expect(backedUp.guestBackups[0]).not.toBe(first.guestBackups[0])
    expect(backedUp.guestBackups[0]).toMatchObject({ newest: 3000, count: 2 })
    expect(backedUp.guestBackups[1]).toBe(first.guestBackups[1])
  })

  it('groups the backups again only when a backup list changes identity', async () => {
    const builder = createGuestBackupBuilder()
    const first = makeState()
    await builder.derive(first)
    const renamed = { ...first, vms: [makeGuest(100, { name: 'renamed' }), first.vms[1]!] }
    const figures = await builder.derive(renamed)
    expect(figures).toMatchObject({ outcome: 'built', regrouped: false })
    expect(renamed.guestBackups[0]!.name).toBe('renamed')
    expect(renamed.guestBackups[1]).toBe(first.guestBackups[1])
  })

  it('abandons a build when newer inputs wait, leaving the collection as it was', async () => {
    const builder = createGuestBackupBuilder(0) // every step is a slice
    const next = makeState()
    const figures = await builder.derive(next, () => true)
    expect(figures.outcome).toBe('superseded')
    expect(next.guestBackups).toEqual([])
    expect(builder.current()).toEqual([])
  })

  it('runs one build at a time: a build started later supersedes the running one', async () => {
    const builder = createGuestBackupBuilder(0)
    const older = makeState()
    const newer = makeState({ storageBackups: [makeStorageBackup(100, 5000)] })
    const [a, b] = await Promise.all([builder.derive(older), builder.derive(newer)])
    expect(a.outcome).toBe('superseded')
    expect(b.outcome).toBe('built')
    expect(older.guestBackups).toEqual([])
    expect(builder.current()[0]).toMatchObject({ newest: 5000 })
  })
})

describe('guest backups in the live state', () => {
  it('publishes a poll without waiting for the summary; the next poll carries it', async () => {
    const seen: number[] = []
    const backupHealth = createBackupHealthDerive(silent)
    const live = createLiveState({
      now: () => 1_700_000_000_000,
      version: 'test',
      clientCount: () => 0,
      derive: backupHealth.derive,
      decorate: (next) => seen.push(next.guestBackups.length),
    })
    const collected = makeCollected(6, 1)
    const guests = collected.vms.length + collected.containers.length
    // The poll goes out with the summaries as they were (none yet): it never waits for a build.
    const first = await live.applyCollected(collected)
    expect(first.state.guestBackups).toEqual([])
    await backupHealth.idle()
    const second = await live.applyCollected(makeCollected(6, 2))
    // The next poll hands the alert engine (decorate) and the clients the built summaries.
    expect(seen).toEqual([0, guests])
    expect(second.state.guestBackups).toHaveLength(guests)
    expect(second.changes?.delta?.upsert?.guestBackups).toHaveLength(guests)
    // The published poll was not changed under the clients' feet.
    expect(first.state.guestBackups).toEqual([])
  })

  it('builds the newest waiting inputs after the running build, never two at once', async () => {
    let built = 0
    const backupHealth = createBackupHealthDerive(silent, () => built++)
    const a = makeState()
    const b = { ...makeState(), vms: makeState().vms.map((g) => ({ ...g, name: `${g.name}-b` })) }
    const c = { ...makeState(), vms: makeState().vms.map((g) => ({ ...g, name: `${g.name}-c` })) }
    backupHealth.derive(a)
    backupHealth.derive(b) // waits, then is replaced by c
    backupHealth.derive(c)
    await backupHealth.idle()
    expect(built).toBe(2)
    const next = makeState()
    backupHealth.derive(next)
    expect(next.guestBackups.find((s) => s.name.endsWith('-c'))).toBeDefined()
    expect(next.guestBackups.find((s) => s.name.endsWith('-b'))).toBeUndefined()
  })

  it('keeps a source pending until summaries built from inputs with its backups are handed out', async () => {
    const backupHealth = createBackupHealthDerive(silent)
    // Built while lab's listing had not answered: its guests' backups are missing from these.
    backupHealth.derive(makeState({ storageBackups: [], backupsPending: ['lab', 'other'] }))
    await backupHealth.idle()
    // The listing answered: the state says read, but the summaries handed out are the old ones.
    const read = makeState({ backupsPending: ['other'] })
    backupHealth.derive(read)
    expect(read.guestBackups.find((s) => s.vmid === 100)?.newest).toBe(0)
    expect(read.backupsPending).toEqual(['lab', 'other'])
    await backupHealth.idle()
    const next = makeState({ backupsPending: [] })
    backupHealth.derive(next)
    expect(next.guestBackups.find((s) => s.vmid === 100)?.newest).toBe(1000)
    // Built from `read`, where 'other' was still pending.
    expect(next.backupsPending).toEqual(['other'])
    await backupHealth.idle()
    const last = makeState({ backupsPending: [] })
    backupHealth.derive(last)
    expect(last.backupsPending).toEqual([])
  })

  it('leaves a received state summaries as the collector built them (web nodes)', async () => {
    let derived = 0
    const web = createLiveState({
      now: () => 1_700_000_000_000,
      version: 'test',
      clientCount: () => 0,
      derive: () => {
        derived++
      },
    })
    const received = makeState()
    received.guestBackups = [
      { ...(await summaryOf(received)), newest: 42 }, // what the collector said, even if odd
    ]
    const published = await web.replaceState(received)
    expect(derived).toBe(0)
    expect(published.state.guestBackups).toBe(received.guestBackups)
  })
})

async function summaryOf(state: State) {
  const copy = { ...state }
  await createGuestBackupBuilder().derive(copy)
  return copy.guestBackups[0]!
}
