// The cluster's backup jobs (GET /cluster/backup) and the guests in none (GET /cluster/backup-info/
// not-backed-up), with Proxmox's semantics: `vmid`/`exclude` are comma strings, `next-run` is set
// for disabled jobs too, and not-backed-up counts disabled jobs as coverage
// (reference/proxmox-api-backups-history.md §1). Planned once at build time from the seed:
//  - the nightly job: every guest except a small exclusion list (templates and ~1.5 % of guests),
//    to the backup target; its runs are the nightly vzdump tasks (backups.ts);
//  - a weekly vmid-list job to local storage whose next run is in the past (it runs late);
//  - a disabled job holding two excluded guests (covered, for Proxmox, but never backed up);
//  - a job restricted to the last node, holding the excluded guests that live there (up to two;
//    one guest of the nightly job there when none is excluded);
// the other excluded guests are in no job, one of them tagged `production`. Two guests of the
// nightly job fail every night since 3 and 10 days ago (failed backups, backup age), and backups
// of a guest destroyed 5 days ago stay on the target (orphans). Pools: the simulator has none.

import type { SimClusterModel, SimGuest } from './model.ts'
import { hash01, hashInt } from './prng.ts'
import type { BackupSeries } from './backups.ts'

const DAY = 86_400
const JOB_SALT = 0x6a0b
/** Share of regular guests the nightly job excludes (at least MIN_EXCLUDED of them). */
const EXCLUDED_SHARE = 0.015
const MIN_EXCLUDED = 5

/** One job of /cluster/backup. */
export interface SimBackupJob {
  id: string
  schedule: string
  storage: string
  enabled: boolean
  all: boolean
  vmids: number[]
  exclude: number[]
  node?: string
  mode: 'snapshot' | 'stop'
  comment: string
  /** Epoch seconds; fixed for the late job, else the next calendar match after now. */
  fixedNextRun?: number
}

/** A guest that fails in every run of the nightly job from `since` (epoch seconds) on. */
export interface ChronicFailure {
  vmid: number
  since: number
  error: string
}

/** The planned jobs and the facts the demo relies on. */
export interface BackupJobPlan {
  jobs: SimBackupJob[]
  /** Guests the nightly job leaves out (templates included). */
  excluded: Set<number>
  failing: ChronicFailure[]
  /** A vmid whose guest no longer exists but whose backups remain. */
  orphanVmid: number
}

/** An empty plan (the cluster model is built in steps). */
export function emptyJobPlan(): BackupJobPlan {
  return { jobs: [], excluded: new Set(), failing: [], orphanVmid: 0 }
}

function jobId(seed: number, n: number): string {
  const hex = (x: number, w: number) => (x >>> 0).toString(16).padStart(8, '0').slice(0, w)
  return `backup-${hex(hashInt(seed, JOB_SALT, n), 8)}-${hex(hashInt(seed, JOB_SALT, n, 1), 4)}`
}

function hhmm(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`
}

/**
 * Plans the jobs of a built cluster (guests, storages and the nightly target exist). Tags the
 * production guest in no job; reserves the orphan's vmid so no new guest ever takes it.
 */
export function planBackupJobs(
  cluster: SimClusterModel,
  target: string,
  startMinute: number,
  nowSec: number,
): BackupJobPlan {
  const { seed } = cluster
  const regular = cluster.guests.filter((g) => g.template === 0)
  const rank = (g: SimGuest) => hash01(seed, g.vmid, JOB_SALT, 1)
  const byRank = [...regular].sort((a, b) => rank(b) - rank(a) || a.vmid - b.vmid)
  const count = Math.min(
    byRank.length,
    Math.max(MIN_EXCLUDED, Math.ceil(regular.length * EXCLUDED_SHARE)),
  )
  const outside = byRank.slice(0, count).sort((a, b) => a.vmid - b.vmid)
  const excluded = new Set<number>(outside.map((g) => g.vmid))
  for (const g of cluster.guests) if (g.template === 1) excluded.add(g.vmid)
  const lastNode = cluster.nodes.length - 1
  const archived = outside.slice(0, 2)
  // The node job holds the excluded guests on the last node; failing those, one of its guests.
  let pinned = outside
    .slice(2)
    .filter((g) => g.node === lastNode)
    .slice(0, 2)
  const onLast = byRank.slice(count).filter((g) => g.node === lastNode && g.running)
  if (pinned.length === 0 && onLast.length > 0) pinned = onLast.slice(-1)
  const taken = new Set([...archived, ...pinned].map((g) => g.vmid))
  const production =
    outside.find((g) => !taken.has(g.vmid) && g.running) ?? outside.find((g) => !taken.has(g.vmid))
  if (production) production.tags = addTag(production.tags, 'production')
  const included = byRank.slice(count).filter((g) => g.running && !taken.has(g.vmid))
  const weekly = [...included].sort((a, b) => a.vmid - b.vmid).slice(0, 3)
  const failing: ChronicFailure[] = included.slice(-2).map((g, i) => ({
    vmid: g.vmid,
    since: nowSec - (i === 0 ? 3 : 10) * DAY,
    error: `VM ${g.vmid} qmp command 'backup' failed - got timeout`,
  }))
  const jobs: SimBackupJob[] = [
    {
      id: jobId(seed, 1),
      schedule: hhmm(startMinute),
      storage: target,
      enabled: true,
      all: true,
      vmids: [],
      exclude: [...excluded].sort((a, b) => a - b),
      mode: 'snapshot',
      comment: 'Nightly, every guest',
    },
    {
      id: jobId(seed, 2),
      schedule: 'sat 03:00',
      storage: 'local',
      enabled: true,
      all: false,
      vmids: weekly.map((g) => g.vmid),
      exclude: [],
      mode: 'snapshot',
      comment: 'Weekly local copy of the databases',
      // The node that runs it has missed its slot (its scheduler was stopped): it is late.
      fixedNextRun: nowSec - 5 * 3600,
    },
    {
      id: jobId(seed, 3),
      schedule: 'sun 04:00',
      storage: target,
      enabled: false,
      all: false,
      vmids: archived.map((g) => g.vmid),
      exclude: [],
      mode: 'stop',
      comment: 'Archive (paused)',
    },
  ]
  if (pinned.length > 0) {
    jobs.push({
      id: jobId(seed, 4),
      schedule: 'mon..fri 22:00',
      storage: 'local',
      enabled: true,
      all: false,
      vmids: pinned.map((g) => g.vmid),
      exclude: [],
      node: cluster.nodes[lastNode]?.name ?? '',
      mode: 'snapshot',
      comment: `Local copies on ${cluster.nodes[lastNode]?.name ?? ''}`,
    })
  }
  return { jobs, excluded, failing, orphanVmid: cluster.nextVmid++ }
}

function addTag(tags: string | undefined, tag: string): string {
  const list = new Set((tags ?? '').split(';').filter((t) => t !== ''))
  list.add(tag)
  return [...list].sort().join(';')
}

/** The orphan's backups: the job's retention of nightly runs until 5 days ago (then it was destroyed). */
export function orphanSeries(cluster: SimClusterModel, nightSec: number): BackupSeries {
  const times: number[] = []
  for (let k = 4 + cluster.backups.keep; k >= 5; k--)
    times.push(nightSec - k * DAY + 3 + (hashInt(cluster.seed, k) % 600))
  return {
    vmid: cluster.backups.plan.orphanVmid,
    type: 'qemu',
    name: 'legacy-erp-01',
    logical: 64 * 1024 ** 3,
    typical: 18 * 1024 ** 3,
    encryption: undefined,
    times,
  }
}

// Seconds after midnight of a `HH:MM`, `sat 03:00` or `mon..fri 22:00` calendar event.
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']
function nextMatch(schedule: string, nowSec: number): number {
  const m = /^(?:(\w{3})(?:\.\.(\w{3}))?\s+)?(\d{2}):(\d{2})$/.exec(schedule)
  if (!m) return 0
  const from = m[1] ? DAYS.indexOf(m[1]) : 0
  const to = m[2] ? DAYS.indexOf(m[2]) : m[1] ? from : 6
  const at = Number(m[3]) * 3600 + Number(m[4]) * 60
  for (let d = 0; d <= 7; d++) {
    const day = Math.floor(nowSec / DAY) * DAY + d * DAY
    const dow = new Date(day * 1000).getUTCDay()
    if (dow >= from && dow <= to && day + at > nowSec) return day + at
  }
  return 0
}

/** GET /cluster/backup: the jobs.cfg entries in config order, with `next-run`. */
export function renderBackupJobs(cluster: SimClusterModel): object[] {
  const nowSec = Math.floor(cluster.lastTickMs / 1000)
  return cluster.backups.plan.jobs.map((job) => {
    const entry: Record<string, unknown> = {
      id: job.id,
      type: 'vzdump',
      schedule: job.schedule,
      enabled: job.enabled ? 1 : 0,
      storage: job.storage,
      mode: job.mode,
      compress: 'zstd',
      'notes-template': '{{guestname}}',
      'prune-backups': { 'keep-last': String(cluster.backups.keep) },
      'repeat-missed': 0,
      comment: job.comment,
      'next-run': job.fixedNextRun ?? nextMatch(job.schedule, nowSec),
    }
    if (job.all) entry.all = 1
    if (job.exclude.length > 0) entry.exclude = job.exclude.join(',')
    if (job.vmids.length > 0) entry.vmid = job.vmids.join(',')
    if (job.node !== undefined) entry.node = job.node
    return entry
  })
}

/** Whether `job` selects `guest` (PVE's get_included_guests: vmid list, else all minus exclude). */
export function jobSelects(cluster: SimClusterModel, job: SimBackupJob, guest: SimGuest): boolean {
  if (job.node !== undefined && cluster.nodes[guest.node]?.name !== job.node) return false
  if (job.vmids.length > 0) return job.vmids.includes(guest.vmid)
  return job.all && !job.exclude.includes(guest.vmid)
}

/** GET /cluster/backup-info/not-backed-up: guests no job selects, enabled or not. */
export function renderNotBackedUp(cluster: SimClusterModel): object[] {
  const { jobs, excluded } = cluster.backups.plan
  const out: object[] = []
  for (const guest of cluster.guests) {
    // Only excluded guests can be outside the all-guests job; check the few other jobs for them.
    if (!excluded.has(guest.vmid)) continue
    if (jobs.some((job) => job.vmids.length > 0 && jobSelects(cluster, job, guest))) continue
    out.push({ vmid: guest.vmid, type: guest.type, name: guest.name })
  }
  return out.sort((a, b) => (a as { vmid: number }).vmid - (b as { vmid: number }).vmid)
}
