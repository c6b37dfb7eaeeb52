// Random estates for the guest backup property test: few instances, nodes, VMIDs, times and names,
// so that collisions (same VMID on two instances, PBS twins, ties, comments naming guests) are
// common. Every draw comes from the seeded `random`.
import type { BackupCoverage, BackupJob } from '../../../../src/shared/model/backup-health.ts'
import type {
  BackupTask,
  Guest,
  PbsBackup,
  State,
  StorageBackup,
} from '../../../../src/shared/model/state.ts'
import { makeGuest } from '../../shared/views/guest-fixtures.ts'

export type Random = () => number

type Inputs = Pick<
  State,
  | 'vms'
  | 'containers'
  | 'storageBackups'
  | 'pbsBackups'
  | 'backupTasks'
  | 'backupJobs'
  | 'backupCoverage'
>

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!
const int = (random: Random, n: number) => Math.floor(random() * n)
const NAMES = ['web', 'db', 'cache', 'mail', '']
const TIMES = [1000, 2000, 3000, 4000, 5000]
const VMIDS = [100, 101, 102, 103, 104, 105, 106, 107]
let serial = 0

function instancesOf(random: Random) {
  return ['a', 'b', 'c'].slice(0, 2 + int(random, 2))
}

function randomGuests(random: Random, instances: string[]): Guest[] {
  const guests: Guest[] = []
  for (const instance of instances) {
    for (const vmid of VMIDS) {
      if (random() < 0.4) continue
      guests.push(
        makeGuest(vmid, {
          instance,
          node: pick(random, ['n1', 'n2']),
          name: pick(random, NAMES),
          type: random() < 0.6 ? 'qemu' : 'lxc',
          pool: pick(random, [undefined, 'p1', 'p2']),
          template: random() < 0.1 ? true : undefined,
        }),
      )
    }
  }
  return guests
}

export function storageBackup(random: Random, instances: string[]): StorageBackup {
  const type = pick(random, ['qemu', 'qemu', 'lxc', 'lxc', 'host', 'unknown'] as const)
  const vmid = type === 'host' ? 0 : pick(random, [...VMIDS, 110, 111])
  const storage = pick(random, ['local', 'nfs', 'pbs-main'])
  const folder = random() < 0.05 ? 'iso' : 'backup'
  const volid = `${storage}:${folder}/vzdump-${type}-${vmid}-${serial++}`
  return {
    id: `s${serial}`,
    storage,
    node: pick(random, ['n1', 'n2']),
    instance: pick(random, instances),
    type,
    vmid,
    ctime: pick(random, TIMES),
    size: pick(random, [1, 2, 3]),
    format: 'vma.zst',
    protected: false,
    volid,
    isPBS: storage === 'pbs-main',
    verified: false,
  }
}

export function pbsBackup(random: Random): PbsBackup {
  const backupType = pick(random, ['vm', 'vm', 'ct', 'ct', 'host'] as const)
  const vmid = backupType === 'host' ? 'pbs-host' : String(pick(random, [...VMIDS, 110, 111]))
  const comment = pick(random, [undefined, ' web ', 'db', 'other'])
  return {
    id: `p${serial++}`,
    instance: pick(random, ['x', 'y']),
    datastore: pick(random, ['main', 'b']),
    namespace: '',
    backupType,
    vmid,
    backupTime: pick(random, TIMES),
    size: pick(random, [1, 2, 3]),
    protected: false,
    verified: false,
    verification: pick(random, [undefined, 'ok', 'failed']),
    encrypted: false,
    files: [],
    ...(comment === undefined ? {} : { comment }),
  }
}

function task(random: Random, instances: string[]): BackupTask {
  const multi = random() < 0.4
  const status = pick(random, ['OK', 'WARNINGS: 1', 'job errors', 'running', 'unexpected status'])
  const startTime = pick(random, TIMES)
  const guests = multi
    ? VMIDS.filter(() => random() < 0.3).map((vmid) => {
        const ok = random() < 0.6
        const error = !ok && random() < 0.7 ? `failed ${vmid}` : undefined
        return error === undefined ? { vmid, ok } : { vmid, ok, error }
      })
    : undefined
  const t: BackupTask = {
    id: `t${serial++}`,
    node: 'n1',
    instance: pick(random, instances),
    type: 'vzdump',
    vmid: multi ? 0 : pick(random, VMIDS),
    status,
    startTime,
    endTime: status === 'running' ? 0 : startTime + pick(random, [0, 10]),
  }
  if (guests) t.guests = guests
  if (random() < 0.5) t.jobId = pick(random, ['backup-1', 'backup-2'])
  if (random() < 0.5) t.error = status
  return t
}

/**
 * A new task list as a collector delivers one: a task started, tasks aged out, a task re-read as
 * an equal new object (a new log page, the same result), or one that ended or whose log changed.
 */
function changeTasks(random: Random, tasks: readonly BackupTask[], instances: string[]) {
  const copy = (t: BackupTask, patch: Partial<BackupTask> = {}): BackupTask => ({
    ...t,
    ...(t.guests ? { guests: t.guests.map((g) => ({ ...g })) } : {}),
    ...patch,
  })
  const at = int(random, Math.max(1, tasks.length))
  switch (int(random, 5)) {
    case 0:
      return [...tasks, task(random, instances)]
    case 1:
      return tasks.filter(() => random() > 0.3)
    case 2:
      return tasks.map((t) => copy(t))
    case 3:
      return tasks.map((t, k) => {
        if (k !== at) return t
        const ended = copy(t, { status: 'OK', endTime: t.startTime + 20 })
        delete ended.error
        return ended
      })
    default:
      return tasks.map((t, k) =>
        k === at && t.guests
          ? copy(t, { guests: t.guests.map((g) => ({ vmid: g.vmid, ok: !g.ok })) })
          : t,
      )
  }
}

function job(random: Random, instances: string[]): BackupJob {
  const selection = int(random, 4)
  const job: BackupJob = {
    id: `j${serial++}`,
    instance: pick(random, instances),
    jobId: 'backup-1',
    schedule: '21:00',
    storage: 'local',
    enabled: random() < 0.7,
    nextRun: 0,
    vmids: selection === 1 ? VMIDS.filter(() => random() < 0.3) : [],
    all: selection === 2 || (selection !== 3 && random() < 0.3),
    exclude: VMIDS.filter(() => random() < 0.2),
    mode: 'snapshot',
  }
  if (selection === 0) job.pool = pick(random, ['p1', 'p2'])
  if (random() < 0.3) job.node = pick(random, ['n1', 'n2'])
  return job
}

function coverage(random: Random, instances: string[]): BackupCoverage[] {
  return instances
    .filter(() => random() < 0.7)
    .map((instance) => ({ id: instance, instance, notBackedUp: [], collectedAt: 1 }))
}

const times = <T>(n: number, make: () => T): T[] => Array.from({ length: n }, make)

/** A random estate. */
export function randomEstate(random: Random): Inputs {
  const instances = instancesOf(random)
  const guests = randomGuests(random, instances)
  return {
    vms: guests.filter((g) => g.type === 'qemu'),
    containers: guests.filter((g) => g.type === 'lxc'),
    storageBackups: times(int(random, 30), () => storageBackup(random, instances)),
    pbsBackups: times(int(random, 30), () => pbsBackup(random)),
    backupTasks: times(int(random, 10), () => task(random, instances)),
    backupJobs: times(int(random, 5), () => job(random, instances)),
    backupCoverage: coverage(random, instances),
  }
}

/** A random change: new lists (new identity) for what changed, the same lists for the rest. */
export function randomChange(random: Random, state: Inputs): Partial<Inputs> {
  const instances = [...new Set([...state.vms, ...state.containers].map((g) => g.instance)), 'a']
  const edit = (list: readonly Guest[]) =>
    list.map((g) =>
      random() < 0.2
        ? {
            ...g,
            name: pick(random, NAMES),
            node: pick(random, ['n1', 'n2']),
            pool: pick(random, [undefined, 'p1']),
          }
        : random() < 0.5
          ? { ...g, cpu: random() } // metrics only: a new object, same fields read
          : g,
    )
  const drop = <T>(list: readonly T[]) => list.filter(() => random() > 0.1)
  switch (int(random, 9)) {
    case 0:
      return {
        storageBackups: [
          ...drop(state.storageBackups),
          ...times(3, () => storageBackup(random, instances)),
        ],
      }
    case 1:
      return { pbsBackups: [...drop(state.pbsBackups), ...times(3, () => pbsBackup(random))] }
    case 2:
      return { vms: edit(state.vms), containers: edit(state.containers) }
    case 3:
      return { vms: drop(state.vms) } // deleted guests: their backups become orphans
    case 4:
      return { backupTasks: changeTasks(random, state.backupTasks, instances) }
    case 5:
      return { backupJobs: [...drop(state.backupJobs), job(random, instances)] }
    case 6:
      return { backupCoverage: coverage(random, instances) }
    case 7:
      return randomEstate(random) // everything new
    default:
      return {} // nothing changed
  }
}
