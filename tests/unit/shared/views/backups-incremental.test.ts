import { describe, expect, it } from 'vitest'
import type { StateDelta } from '../../../../src/shared/model/messages.ts'
import {
  createEmptyState,
  type Guest,
  type GuestSnapshot,
  type PbsBackup,
  type StorageBackup,
} from '../../../../src/shared/model/state.ts'
import { createBackupNormaliser } from '../../../../src/shared/views/backups-incremental.ts'
import {
  normaliseBackups,
  type BackupSources,
  type NormalisedBackups,
} from '../../../../src/shared/views/backups-normalize.ts'
import {
  createBackupsViewPipeline,
  type BackupsViewInput,
  type BackupsViewResult,
} from '../../../../src/shared/views/backups-view.ts'
import type { BackupsViewRequest } from '../../../../src/shared/views/backups-types.ts'
import { createStateStore, type StateStore } from '../../../../src/worker/store.ts'
import { computeNodeSummary } from '../../../../src/shared/views/node-summary.ts'
import { makeGuest, makeNode } from './guest-fixtures.ts'
import {
  at,
  makeBackupsRequest,
  makePbsBackup,
  makeSnapshot,
  makeStorageBackup,
} from './backups-fixtures.ts'

// Seeded, so a failure replays: mulberry32.
function createRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const INSTANCES = ['alpha', 'bravo'] as const
const NODES = ['n1', 'n2'] as const
const T0 = at(2024, 3, 2, 10)

/** A small estate where VMIDs repeat across instances and PBS times collide with PVE ones. */
function createScenario(seed: number) {
  const random = createRandom(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const vmid = () => 100 + Math.floor(random() * 8)
  const time = () => T0 + Math.floor(random() * 6) * 3600 // few times: many twins
  let serial = 0
  const guest = (): Guest => {
    const instance = pick(INSTANCES)
    const node = pick(NODES)
    return makeGuest(vmid(), {
      instance,
      node,
      name: `g-${serial++}`,
      type: random() < 0.5 ? 'qemu' : 'lxc',
    })
  }
  const storageBackup = (pbsList: readonly PbsBackup[]): StorageBackup => {
    // A third are PVE-side twins of a PBS backup (same time and vmid).
    const twin = random() < 0.35 && pbsList.length > 0 ? pick(pbsList) : undefined
    const id = vmid()
    const ctime = twin ? twin.backupTime : time()
    const instance = pick(INSTANCES)
    const node = pick(NODES)
    const kind = random() < 0.05 ? 'iso' : 'backup'
    const volid =
      kind === 'iso'
        ? `local:iso/x-${serial++}.iso`
        : `local:backup/vzdump-qemu-${id}-${serial++}.vma`
    return makeStorageBackup(twin ? Number(twin.vmid) : id, ctime, {
      id: `${instance}-${node}-${volid}`,
      instance,
      node,
      volid,
      type: random() < 0.5 ? 'qemu' : 'lxc',
      notes: random() < 0.5 ? `note ${serial}` : undefined,
      size: Math.floor(random() * 1000),
    })
  }
  const pbsBackup = (): PbsBackup => {
    const host = random() < 0.05
    return makePbsBackup(host ? 'backup-host' : String(vmid()), time(), {
      id: `pbs-${serial++}`,
      backupType: host ? 'host' : random() < 0.5 ? 'vm' : 'ct',
      comment: random() < 0.3 ? `g-${Math.floor(random() * serial)}` : undefined,
    })
  }
  const snapshot = (): GuestSnapshot =>
    makeSnapshot(vmid(), time(), {
      id: `snap-${serial++}`,
      name: `s${serial}`,
      instance: pick(INSTANCES),
      node: pick(NODES),
    })
  return { random, pick, guest, storageBackup, pbsBackup, snapshot, time }
}

function sourcesOf(store: StateStore): BackupSources {
  return {
    guestSnapshots: store.getCollection('guestSnapshots'),
    storageBackups: store.getCollection('storageBackups'),
    pbsBackups: store.getCollection('pbsBackups'),
    guests: store.getGuests(),
  }
}

function viewInput(store: StateStore): BackupsViewInput {
  return {
    ...sourcesOf(store),
    pveReceived: true,
    pbs: [],
    nodes: [],
    now: (T0 + 86_400) * 1000,
  }
}

/** Group numbers are arbitrary: compare which records share a group. */
function groupPartition(data: NormalisedBackups): number[] {
  const first = new Map<number, number>()
  return Array.from(data.guestGroups, (group, i) => {
    if (!first.has(group)) first.set(group, i)
    return first.get(group)!
  })
}

function expectSameNormalisation(incremental: NormalisedBackups, scratch: NormalisedBackups) {
  expect(incremental.records).toEqual(scratch.records)
  expect(Array.from(incremental.days)).toEqual(Array.from(scratch.days))
  expect(Array.from(incremental.times)).toEqual(Array.from(scratch.times))
  expect(incremental.classes).toEqual(scratch.classes)
  expect(incremental.nodeIds).toEqual(scratch.nodeIds)
  expect(incremental.hasHost).toBe(scratch.hasHost)
  expect(groupPartition(incremental)).toEqual(groupPartition(scratch))
}

/** Guest group keys carry the group number, which only has to be unique: mask it. */
function withoutGroupNumbers(model: BackupsViewResult): BackupsViewResult {
  return {
    ...model,
    rows: model.rows.map((row) =>
      row.kind === 'group' && row.key.startsWith('g:') ? { ...row, key: 'g:#' } : row,
    ),
  }
}

type Row = { id: string } & Record<string, unknown>

/** One random delta: upserts (changed and new records), removals, guest renames and moves. */
function randomDelta(store: StateStore, scenario: ReturnType<typeof createScenario>): StateDelta {
  const { random, pick } = scenario
  const upsert: Record<string, Row[]> = {}
  const remove: Record<string, string[]> = {}
  const some = <T extends { id: string }>(list: readonly T[], share: number) =>
    list.filter(() => random() < share)
  const storage = store.getCollection('storageBackups')
  const pbs = store.getCollection('pbsBackups')
  const snaps = store.getCollection('guestSnapshots')
  const guests = [...store.getCollection('vms'), ...store.getCollection('containers')]
  const roll = random()
  if (roll < 0.25) {
    // Backups change a field (size, time: a time change may make or break a PBS twin).
    upsert.storageBackups = some(storage, 0.1).map((b) => ({
      id: b.id,
      ...(random() < 0.5 ? { size: b.size + 1 } : { ctime: scenario.time() }),
    }))
    upsert.pbsBackups = some(pbs, 0.1).map((b) => ({
      id: b.id,
      ...(random() < 0.5 ? { size: b.size + 1 } : { backupTime: scenario.time() }),
    }))
    upsert.guestSnapshots = some(snaps, 0.1).map((s) => ({ id: s.id, description: 'changed' }))
  } else if (roll < 0.5) {
    upsert.storageBackups = Array.from({ length: 3 }, () =>
      scenario.storageBackup(pbs),
    ) as unknown as Row[]
    upsert.pbsBackups = Array.from({ length: 3 }, () => scenario.pbsBackup()) as unknown as Row[]
    upsert.guestSnapshots = [scenario.snapshot()] as unknown as Row[]
  } else if (roll < 0.7) {
    remove.storageBackups = some(storage, 0.15).map((b) => b.id)
    remove.pbsBackups = some(pbs, 0.15).map((b) => b.id)
    remove.guestSnapshots = some(snaps, 0.15).map((s) => s.id)
  } else if (roll < 0.85 && guests.length > 0) {
    // Renamed, moved or new guests: names resolve differently.
    const target = pick(guests)
    const key = target.type === 'lxc' ? 'containers' : 'vms'
    if (random() < 0.5) upsert[key] = [{ id: target.id, name: `renamed-${random()}` }]
    else upsert[key] = [{ id: target.id, node: pick(NODES) }]
    const added = scenario.guest()
    const addKey = added.type === 'lxc' ? 'containers' : 'vms'
    ;(upsert[addKey] ??= []).push(added as unknown as Row)
  } else if (guests.length > 0) {
    const target = pick(guests)
    remove[target.type === 'lxc' ? 'containers' : 'vms'] = [target.id]
  }
  return { upsert, remove } as StateDelta
}

function createLoadedStore(scenario: ReturnType<typeof createScenario>): StateStore {
  const state = createEmptyState(0, 'test')
  for (let i = 0; i < 10; i++) {
    const guest = scenario.guest()
    ;(guest.type === 'lxc' ? state.containers : state.vms).push(guest)
  }
  for (let i = 0; i < 40; i++) state.pbsBackups.push(scenario.pbsBackup())
  for (let i = 0; i < 40; i++) state.storageBackups.push(scenario.storageBackup(state.pbsBackups))
  for (let i = 0; i < 15; i++) state.guestSnapshots.push(scenario.snapshot())
  const store = createStateStore()
  store.applyFull(JSON.parse(JSON.stringify(state)) as Record<string, unknown>, 0)
  return store
}

describe('incremental backup normalisation', () => {
  it.each([1, 2, 3, 4, 5])(
    'equals a normalisation from scratch after random upserts and removals (seed %i)',
    (seed) => {
      const scenario = createScenario(seed)
      const store = createLoadedStore(scenario)
      const normalise = createBackupNormaliser()
      expectSameNormalisation(normalise(sourcesOf(store)), normaliseBackups(sourcesOf(store)))
      for (let step = 1; step <= 60; step++) {
        if (step % 20 === 0) {
          // A resync: a full state replaces every object (same ids, new objects).
          const full = JSON.parse(JSON.stringify(store.toState())) as Record<string, unknown>
          store.applyFull(full, step)
          expectSameNormalisation(normalise(sourcesOf(store)), normaliseBackups(sourcesOf(store)))
          continue
        }
        const delta = JSON.parse(JSON.stringify(randomDelta(store, scenario))) as StateDelta
        expect(store.applyDelta(delta, step).outcome).toBe('applied')
        expectSameNormalisation(normalise(sourcesOf(store)), normaliseBackups(sourcesOf(store)))
      }
    },
  )

  it('keeps the view (rows, chart, totals) equal to a fresh pipeline through the same changes', () => {
    const scenario = createScenario(42)
    const store = createLoadedStore(scenario)
    const live = createBackupsViewPipeline()
    const requests: BackupsViewRequest[] = [
      makeBackupsRequest(),
      makeBackupsRequest({ sort: { key: 'size', direction: 'asc' } }),
      makeBackupsRequest({ sort: { key: 'name', direction: 'desc' }, grouping: 'guest' }),
      makeBackupsRequest({ search: 'g-1' }),
    ]
    for (let step = 1; step <= 40; step++) {
      const delta = JSON.parse(JSON.stringify(randomDelta(store, scenario))) as StateDelta
      store.applyDelta(delta, step)
      // Every request each step: the sorted orders of all four are carried over the change.
      const input = viewInput(store)
      for (const request of requests) {
        expect(withoutGroupNumbers(live.compute(input, request))).toEqual(
          withoutGroupNumbers(createBackupsViewPipeline().compute(input, request)),
        )
      }
    }
  })

  it('stays equal when a long run of records is removed and new ones are appended', () => {
    const scenario = createScenario(9)
    const state = createEmptyState(0, 'test')
    for (let i = 0; i < 30; i++) state.pbsBackups.push(scenario.pbsBackup())
    for (let i = 0; i < 400; i++)
      state.storageBackups.push(scenario.storageBackup(state.pbsBackups))
    const store = createStateStore()
    store.applyFull(JSON.parse(JSON.stringify(state)) as Record<string, unknown>, 0)
    const normalise = createBackupNormaliser()
    normalise(sourcesOf(store))
    const ids = store.getCollection('storageBackups').map((b) => b.id)
    const delta: StateDelta = {
      remove: { storageBackups: ids.slice(100, 300), pbsBackups: [state.pbsBackups[0]!.id] },
      upsert: {
        storageBackups: [
          { id: ids[50]!, size: 1 },
          ...([scenario.storageBackup(state.pbsBackups)] as unknown as Row[]),
        ],
      },
    }
    store.applyDelta(delta, 1)
    const after = normalise(sourcesOf(store))
    expectSameNormalisation(after, normaliseBackups(sourcesOf(store)))
    // The 99 kept records after the gap are found again, not rebuilt.
    expect(after.change!.added.length).toBeLessThan(10)
  })

  it('keeps the node summary Backups counts equal to a full count through the same changes', () => {
    const scenario = createScenario(11)
    const store = createLoadedStore(scenario)
    const normalise = createBackupNormaliser()
    // One node of each instance is known; the others' backups are not counted anywhere.
    const nodes = [makeNode('n1', { instance: 'alpha' }), makeNode('n2', { instance: 'bravo' })]
    const request = { kind: 'nodeSummary', tab: 'backups', sort: null } as const
    for (let step = 1; step <= 30; step++) {
      const delta = JSON.parse(JSON.stringify(randomDelta(store, scenario))) as StateDelta
      store.applyDelta(delta, step)
      const input = {
        nodes,
        guests: store.getGuests(),
        pbs: [],
        storage: [],
        physicalDisks: [],
        storageBackups: store.getCollection('storageBackups'),
        guestSnapshots: store.getCollection('guestSnapshots'),
        pbsBackups: store.getCollection('pbsBackups'),
      }
      const data = normalise(sourcesOf(store))
      expect(computeNodeSummary({ ...input, backups: () => data }, request).rows).toEqual(
        computeNodeSummary(input, request).rows,
      )
    }
  })

  it('rebuilds only the records whose source objects changed', () => {
    const scenario = createScenario(7)
    const store = createLoadedStore(scenario)
    const normalise = createBackupNormaliser()
    const before = normalise(sourcesOf(store))
    const target = store.getCollection('guestSnapshots')[3]!
    store.applyDelta({ upsert: { guestSnapshots: [{ id: target.id, description: 'x' }] } }, 1)
    const after = normalise(sourcesOf(store))
    expect(Array.from(after.change!.added)).toEqual([3])
    const kept = after.records.filter((record, i) => record === before.records[i])
    expect(kept).toHaveLength(before.records.length - 1)
  })

  it('does not renormalise when only guest metrics change', () => {
    const scenario = createScenario(8)
    const store = createLoadedStore(scenario)
    const pipeline = createBackupsViewPipeline()
    pipeline.compute(viewInput(store), makeBackupsRequest())
    const guest = store.getCollection('vms')[0] ?? store.getCollection('containers')[0]!
    const key = guest.type === 'lxc' ? 'containers' : 'vms'
    store.applyDelta({ upsert: { [key]: [{ id: guest.id, cpu: 0.9 }] } }, 1)
    pipeline.compute(viewInput(store), makeBackupsRequest())
    expect(pipeline.runs.normalise).toBe(1)
  })
})
