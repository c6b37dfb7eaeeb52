// Property test of the incremental path of the guest backup summaries: on random estates, random
// sequences of record-level changes (records added, dropped, moved, duplicated, replaced by equal
// copies as a PBS refresh hands them, or by same-id records with another field; guests renamed,
// moved to another node or instance, reordered, added and removed) go through one long-lived
// builder, whose result after each must deep-equal (order included) a fresh full build of the same
// inputs. Seeded: a failure names its seed and step and replays.
import { describe, expect, it } from 'vitest'
import type { GuestBackup } from '../../../../src/shared/model/backup-health.ts'
import {
  createEmptyState,
  type Guest,
  type PbsBackup,
  type State,
  type StorageBackup,
} from '../../../../src/shared/model/state.ts'
import { createGuestBackupBuilder } from '../../../../src/server/backup-health/guest-backups.ts'
import { summariseGuestBackups } from '../../../../src/shared/views/guest-backups/summary.ts'
import { createRandom } from '../../worker/random-state.ts'
import {
  pbsBackup,
  randomChange,
  randomEstate,
  storageBackup,
  type Random,
} from './random-estate.ts'

const int = (random: Random, n: number) => Math.floor(random() * n)
const pick = <T>(random: Random, list: readonly T[]): T => list[int(random, list.length)]!

/** One random edit of a record list: the list is new, most record objects are kept. */
function editList<R>(random: Random, list: readonly R[], make: () => R, alter: (r: R) => R): R[] {
  const out = [...list]
  switch (int(random, 7)) {
    case 0: // new records anywhere
      for (let n = 1 + int(random, 3); n > 0; n--)
        out.splice(int(random, out.length + 1), 0, make())
      return out
    case 1: // dropped records
      return out.filter(() => random() > 0.2)
    case 2: // a refresh: every record a new, equal object
      return out.map((r) => ({ ...r }))
    case 3: // same ids, a field the summary reads changed
      return out.map((r) => (random() < 0.3 ? alter(r) : r))
    case 4: {
      // a run moved elsewhere (another listing order)
      const from = int(random, out.length + 1)
      const run = out.splice(from, int(random, 6))
      out.splice(int(random, out.length + 1), 0, ...run)
      return out
    }
    case 5: // the same object twice, and an equal copy
      if (out.length > 0) out.push(pick(random, out), { ...pick(random, out) })
      return out
    default: // a refresh that also gained and lost records
      return [...out.filter(() => random() > 0.1).map((r) => ({ ...r })), make()]
  }
}

function alterStorage(random: Random, b: StorageBackup): StorageBackup {
  switch (int(random, 6)) {
    case 0:
      return { ...b, size: b.size + 1 }
    case 1:
      return { ...b, ctime: pick(random, [1000, 2000, 3000, 4000, 5000]) }
    case 2:
      return { ...b, vmid: pick(random, [100, 101, 102, 110]) }
    case 3:
      return { ...b, instance: pick(random, ['a', 'b', 'c']) }
    case 4:
      return { ...b, volid: `local:iso/${b.vmid}.iso` }
    default:
      return { ...b, storage: pick(random, ['local', 'nfs']) }
  }
}

function alterPbs(random: Random, b: PbsBackup): PbsBackup {
  switch (int(random, 6)) {
    case 0:
      return { ...b, verification: pick(random, [undefined, 'ok', 'failed']) }
    case 1:
      return { ...b, comment: pick(random, ['web', 'db', ' other '])! }
    case 2:
      return { ...b, backupTime: pick(random, [1000, 2000, 3000, 4000, 5000]) }
    case 3:
      return { ...b, vmid: pick(random, ['100', '101', '0101', '110']) }
    case 4:
      return { ...b, datastore: pick(random, ['main', 'b', 'c']) }
    default:
      return { ...b, size: b.size + 1, backupType: pick(random, ['vm', 'ct']) }
  }
}

function editGuests(random: Random, list: readonly Guest[]): Guest[] {
  const out = list.map((g) => {
    if (random() > 0.25) return random() < 0.5 ? { ...g, cpu: random() } : g
    switch (int(random, 4)) {
      case 0:
        return { ...g, name: pick(random, ['web', 'db', 'renamed', '']) }
      case 1:
        return { ...g, node: pick(random, ['n1', 'n2', 'n3']) }
      case 2:
        return { ...g, instance: pick(random, ['a', 'b', 'c']) }
      default:
        return { ...g, pool: pick(random, [undefined, 'p1', 'p2']) }
    }
  })
  if (out.length > 1 && random() < 0.3) out.push(out.shift()!) // reordered
  if (out.length > 0 && random() < 0.2) out.splice(int(random, out.length), 1)
  return out
}

function recordChange(random: Random, state: State): Partial<State> {
  const instances = ['a', 'b', 'c']
  switch (int(random, 5)) {
    case 0:
      return {
        storageBackups: editList(
          random,
          state.storageBackups,
          () => storageBackup(random, instances),
          (b) => alterStorage(random, b),
        ),
      }
    case 1:
      return {
        pbsBackups: editList(
          random,
          state.pbsBackups,
          () => pbsBackup(random),
          (b) => alterPbs(random, b),
        ),
      }
    case 2:
      return {
        vms: editGuests(random, state.vms),
        containers: editGuests(random, state.containers),
      }
    case 3: // several lists at once
      return {
        ...recordChange(random, state),
        ...recordChange(random, state),
        ...randomChange(random, state),
      }
    default:
      return randomChange(random, state)
  }
}

describe('guest backup summaries, incremental against a full build (property)', () => {
  it('deep-equals a fresh full build after every random change, over 150 seeded estates', async () => {
    for (let seed = 1; seed <= 150; seed++) {
      const random = createRandom(seed * 7919)
      const builder = createGuestBackupBuilder(random() < 0.5 ? 0 : 8)
      let state: State = { ...createEmptyState(1, 'test'), ...randomEstate(random) }
      for (let step = 0; step < 10; step++) {
        if (step > 0) state = { ...state, ...recordChange(random, state) }
        if (random() < 0.15) await builder.derive({ ...state }, () => true) // superseded
        const next = { ...state }
        await builder.derive(next)
        const fresh: GuestBackup[] = summariseGuestBackups(next)
        expect(next.guestBackups, `seed ${seed} step ${step}`).toEqual(fresh)
        state = next
      }
    }
  }, 120_000)
})
