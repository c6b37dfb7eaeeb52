// A small random backup estate in the worker's store and random deltas over it (all three backup
// collections and the guests), for the incremental backups tests.
import type { StateDelta } from '../../../../src/shared/model/messages.ts'
import {
  createEmptyState,
  type Guest,
  type GuestSnapshot,
  type PbsBackup,
  type StorageBackup,
} from '../../../../src/shared/model/state.ts'
import type { BackupSources } from '../../../../src/shared/views/backups-normalize.ts'
import type {
  BackupsViewInput,
  BackupsViewResult,
} from '../../../../src/shared/views/backups-view.ts'
import { createStateStore, type StateStore } from '../../../../src/worker/store.ts'
import { makeGuest } from './guest-fixtures.ts'
import { at, makePbsBackup, makeSnapshot, makeStorageBackup } from './backups-fixtures.ts'

// Seeded, so a failure replays: mulberry32.
export function createRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const INSTANCES = ['alpha', 'bravo'] as const
export const NODES = ['n1', 'n2'] as const
export const T0 = at(2024, 3, 2, 10)

/**
 * A small estate where VMIDs repeat across instances and PBS times collide with PVE ones; `wide`
 * also spreads times over three days and PBS backups over two datastores and two namespaces.
 */
export function createScenario(seed: number, wide = false) {
  const random = createRandom(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const vmid = () => 100 + Math.floor(random() * 8)
  // Few times: many twins. A wide estate spreads them over a few days (date groups, chart days).
  const time = () =>
    T0 - (wide ? Math.floor(random() * 3) * 86_400 : 0) + Math.floor(random() * 6) * 3600
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
      ...(wide
        ? {
            datastore: random() < 0.7 ? 'main' : 'offsite',
            namespace: random() < 0.5 ? '' : 'prod',
          }
        : {}),
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

export function sourcesOf(store: StateStore): BackupSources {
  return {
    guestSnapshots: store.getCollection('guestSnapshots'),
    storageBackups: store.getCollection('storageBackups'),
    pbsBackups: store.getCollection('pbsBackups'),
    guests: store.getGuests(),
  }
}

export function viewInput(store: StateStore): BackupsViewInput {
  return {
    ...sourcesOf(store),
    pveReceived: true,
    pbs: [],
    nodes: [],
    now: (T0 + 86_400) * 1000,
  }
}

/** Guest group keys carry the group number, which only has to be unique: mask it. */
export function withoutGroupNumbers(model: BackupsViewResult): BackupsViewResult {
  return {
    ...model,
    rows: model.rows.map((row) =>
      row.kind === 'group' && row.key.startsWith('g:') ? { ...row, key: 'g:#' } : row,
    ),
  }
}

export type Row = { id: string } & Record<string, unknown>

/** One random delta: upserts (changed and new records), removals, guest renames and moves. */
export function randomDelta(
  store: StateStore,
  scenario: ReturnType<typeof createScenario>,
): StateDelta {
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

export function createLoadedStore(scenario: ReturnType<typeof createScenario>): StateStore {
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
