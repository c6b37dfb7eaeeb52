// Property test of the server's guest backup summaries: random estates (guests on 2-3 instances,
// backups on PVE storage and PBS, jobs with random selections, vzdump tasks) go through a series
// of random changes; after each, the incremental, sliced builder's result equals a from-scratch
// computation by the simple reference below (written independently of src: loops over
// everything per guest), unchanged summaries keep their identity, and the coverage counts agree.
// Seeded (random-state.ts's mulberry32): a failure names its seed and replays.
import { describe, expect, it } from 'vitest'
import {
  taskRunState,
  type BackupJob,
  type GuestBackup,
} from '../../../../src/shared/model/backup-health.ts'
import {
  createEmptyState,
  type Guest,
  type PbsBackup,
  type State,
  type StorageBackup,
} from '../../../../src/shared/model/state.ts'
import { createGuestBackupBuilder } from '../../../../src/server/backup-health/guest-backups.ts'
import { createRandom } from '../../worker/random-state.ts'
import { randomEstate, randomChange } from './random-estate.ts'

// ---- the reference: straightforward, quadratic, from the rules as stated ----

interface Item {
  time: number
  location: string
  size: number
  source: 'pve' | 'pbs'
  verifyFailed: boolean
}

const later = (a: Item, b: Item) =>
  a.time !== b.time
    ? a.time > b.time
    : a.location !== b.location
      ? a.location > b.location
      : a.size > b.size

function summary(base: Omit<GuestBackup, 'newest' | 'count' | 'verifyFailed'>, items: Item[]) {
  const out: GuestBackup = { ...base, newest: 0, count: items.length, verifyFailed: 0 }
  let best: Item | undefined
  for (const item of items) {
    if (item.verifyFailed) out.verifyFailed++
    if (!best || later(item, best)) best = item
  }
  if (best) {
    out.newest = best.time
    out.newestSource = best.source
    out.newestLocation = best.location
    out.newestSize = best.size
  }
  return out
}

function selects(job: BackupJob, guest: Guest): boolean {
  if (job.node && job.node !== guest.node) return false
  if (job.pool) return guest.pool === job.pool
  if (job.vmids.length > 0) return job.vmids.includes(guest.vmid)
  if (job.all) return !job.exclude.includes(guest.vmid)
  return false
}

function reference(state: State): GuestBackup[] {
  const guests = [...state.vms, ...state.containers]
  const ignored = (b: StorageBackup) => /^[^:]*:(iso|vztmpl)\//.test(b.volid)
  const dupOf = (b: StorageBackup) =>
    state.pbsBackups.some((p) => p.backupTime === b.ctime && p.vmid === String(b.vmid))
  const storage = state.storageBackups.filter((b) => !ignored(b))
  const pveItems = storage.filter((b) => !dupOf(b) && (b.type === 'qemu' || b.type === 'lxc'))
  const twin = (p: PbsBackup) => {
    const set = new Set(
      storage
        .filter((b) => b.ctime === p.backupTime && String(b.vmid) === p.vmid)
        .map((b) => b.instance),
    )
    return set.size === 0 ? undefined : set.size === 1 ? [...set][0]! : ''
  }
  const kind = (type: string) => (type === 'lxc' ? 'ct' : 'vm')
  const owner = (instance: string, vmid: number) =>
    guests.find((g) => g.instance === instance && g.vmid === vmid)
  const pbsOwner = (p: PbsBackup, t: string | undefined) => {
    let c = guests.filter(
      (g) => g.name && kind(g.type) === p.backupType && String(g.vmid) === p.vmid,
    )
    if (t) c = c.filter((g) => g.instance === t)
    if (c.length > 1 && p.comment) {
      const named = c.find((g) => g.name === p.comment!.trim())
      if (named) return named
    }
    return c[0]
  }
  const items = new Map<string, Item[]>()
  const orphanInfo = new Map<string, { instance: string; vmid: number; type: Guest['type'] }>()
  const push = (key: string, item: Item) => items.set(key, [...(items.get(key) ?? []), item])
  const orphan = (instance: string, type: Guest['type'], vmid: number, item: Item) => {
    const id = `orphan-${instance}-${kind(type)}-${vmid}`
    orphanInfo.set(id, { instance, vmid, type })
    push(id, item)
  }
  for (const b of pveItems) {
    const item: Item = {
      time: b.ctime,
      location: b.storage,
      size: b.size,
      source: 'pve',
      verifyFailed: false,
    }
    const g = owner(b.instance, b.vmid)
    if (g) push(g.id, item)
    else orphan(b.instance, b.type as Guest['type'], b.vmid, item)
  }
  for (const p of state.pbsBackups) {
    if (p.backupType === 'host') continue
    const item: Item = {
      time: p.backupTime,
      location: `pbs-${p.instance}:${p.datastore}`,
      size: p.size,
      source: 'pbs',
      verifyFailed: p.verification === 'failed',
    }
    const t = twin(p)
    const g = pbsOwner(p, t)
    const type = p.backupType === 'ct' ? 'lxc' : 'qemu'
    const vmid = Number(p.vmid)
    if (g) push(g.id, item)
    else if (t) {
      if (!owner(t, vmid)) orphan(t, type, vmid, item)
    } else if (!guests.some((x) => kind(x.type) === p.backupType && x.vmid === vmid)) {
      orphan(`pbs-${p.instance}`, type, vmid, item)
    }
  }
  const out: GuestBackup[] = []
  for (const g of guests) {
    // The first guest of an (instance, vmid) owns its storage backups; a duplicate gets none.
    const first = owner(g.instance, g.vmid) === g
    const jobs = state.backupJobs.filter((j) => j.instance === g.instance && selects(j, g))
    const read = state.backupCoverage.some((c) => c.instance === g.instance)
    const coverage = !read
      ? 'unknown'
      : jobs.some((j) => j.enabled)
        ? 'enabled'
        : jobs.length > 0
          ? 'disabled'
          : 'none'
    const s = summary(
      {
        id: g.id,
        instance: g.instance,
        node: g.node,
        vmid: g.vmid,
        type: g.type,
        name: g.name,
        template: g.template === true,
        orphaned: false,
        coverage,
      },
      first ? (items.get(g.id) ?? []) : [],
    )
    const tasks = state.backupTasks.filter(
      (t) =>
        t.instance === g.instance &&
        (t.vmid === g.vmid || t.guests?.some((x) => x.vmid === g.vmid)),
    )
    tasks.sort(
      (x, y) => y.startTime - x.startTime || y.endTime - x.endTime || (y.id > x.id ? 1 : -1),
    )
    const task = tasks[0]
    if (task) {
      const entry = task.guests?.find((x) => x.vmid === g.vmid)
      const ts = taskRunState(task.status)
      const st = !entry ? ts : !entry.ok ? 'failed' : ts === 'failed' ? 'ok' : ts
      s.lastJob = { state: st, time: task.endTime || task.startTime, taskId: task.id }
      if (task.jobId !== undefined) s.lastJob.jobId = task.jobId
      const error = st === 'failed' ? (entry?.error ?? task.error) : undefined
      if (error !== undefined) s.lastJob.error = error
    }
    out.push(s)
  }
  for (const [id, o] of orphanInfo) {
    const base = {
      id,
      ...o,
      node: '',
      name: '',
      template: false,
      orphaned: true,
      coverage: 'unknown' as const,
    }
    out.push(summary(base, items.get(id)!))
  }
  return out
}

const sorted = (list: readonly GuestBackup[]) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1))
const counts = (list: readonly GuestBackup[]) => {
  const by: Record<string, number> = {}
  for (const s of list) by[s.coverage] = (by[s.coverage] ?? 0) + 1
  return by
}

describe('guest backup summaries (property)', () => {
  it('equal a from-scratch reference after every random change, over 200 seeded estates', async () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = createRandom(seed)
      const builder = createGuestBackupBuilder(random() < 0.5 ? 0 : 8)
      let state: State = { ...createEmptyState(1, 'test'), ...randomEstate(random) }
      let before: readonly GuestBackup[] = []
      for (let step = 0; step < 8; step++) {
        if (step > 0) state = { ...state, ...randomChange(random, state) }
        // Now and then a build that newer inputs supersede first.
        if (random() < 0.2) await builder.derive({ ...state }, () => true)
        const next = { ...state }
        await builder.derive(next)
        const want = reference(next)
        expect(sorted(next.guestBackups), `seed ${seed} step ${step}`).toEqual(sorted(want))
        expect(counts(next.guestBackups), `seed ${seed} step ${step}`).toEqual(counts(want))
        const old = new Map(before.map((s) => [s.id, s]))
        for (const s of next.guestBackups) {
          const was = old.get(s.id)
          if (was && JSON.stringify(was) === JSON.stringify(s)) {
            expect(s, `seed ${seed} step ${step}: ${s.id} kept`).toBe(was)
          }
        }
        before = next.guestBackups
        state = next
      }
    }
  })
})
