// The raw backup records of one PVE endpoint (reference/proxmox-api.md §2.12-2.13, §4.2-4.3):
// backup volumes of every storage with backup content, vzdump tasks, and guest snapshots. The
// backups collector reads the storage view, so pve-slow.ts runs it after the storage collector.
import type { GuestSnapshot, StorageBackup } from '../../shared/model/state.ts'
import { CADENCE_MS, DEFAULT_POLL_INTERVAL_MS, isDue } from './cadence.ts'
import type { Collector } from './collector.ts'
import {
  planBackupListings,
  reuseRecords,
  sameRecords,
  toBackupTasks,
  toGuestSnapshots,
  toStorageBackup,
} from './pve-backups.ts'
import { reuseSliced } from './sliced.ts'
import {
  enc,
  LISTING_DUTY,
  onlineNodes,
  SNAPSHOT_MIN_BATCH,
  TASK_LIMIT,
  TASK_WINDOW_S,
  type PveSlowMemory,
  type SlowGuest,
  type SlowRun,
} from './pve-slow-context.ts'

/**
 * Backup volumes per storage. Listings that cannot be made now (node offline, storage inactive)
 * keep their last volumes; storage that no longer exists drops them.
 */
export const backupsCollector: Collector<SlowRun, boolean> = {
  name: 'backups',
  intervalMs: CADENCE_MS.backups,
  async collect(run) {
    const m = run.memory
    // A node whose storage call just failed (often a hanging mount) would fail the listing too.
    const nodes = run.nodes.map((n) => ({ ...n, online: n.online && !m.storageFailed.has(n.name) }))
    const plan = planBackupListings(nodes, (node) => m.storageView.get(node))
    let changed = false
    for (const key of m.backups.keys()) {
      if (!plan.has(key) && m.backups.delete(key)) changed = true
    }
    for (const key of m.backupsListed.keys()) if (!plan.has(key)) m.backupsListed.delete(key)
    await Promise.all(
      [...plan].map(async ([key, { node, storage }]) => {
        if (!node) return
        // A listing that took long keeps its volumes until a tenth of the time is spent on it.
        const last = m.backupsListed.get(key)
        const wait = last ? last.ms * LISTING_DUTY : 0
        if (last && m.backups.has(key) && run.now >= last.at && run.now - last.at < wait) return
        const started = performance.now()
        try {
          const path = `/nodes/${enc(node)}/storage/${enc(storage.name)}/content`
          const ctx = {
            instance: run.instance,
            node,
            storage: storage.name,
            storageType: storage.type,
          }
          // A shared storage can list 100,000 volumes: each is mapped as it is parsed, so the raw
          // entries are never held all at once, and compared a slice at a time.
          const answer = await run.request(path, { content: 'backup' }, (entry) =>
            toStorageBackup(entry, ctx, m.intern),
          )
          const list = Array.isArray(answer) ? (answer as StorageBackup[]) : []
          const previous = m.backups.get(key)
          const kept = await reuseSliced(previous?.list, list)
          if (!previous || previous.node !== node || !kept.same) {
            m.backups.set(key, { node, list: kept.list })
            changed = true
          }
          m.backupsListed.set(key, { at: run.now, ms: performance.now() - started })
          run.log.succeeded(`backups:${key}`)
        } catch (err) {
          run.log.failed(`backups:${key}`, err, { node, storage: storage.name })
        }
      }),
    )
    trackUnread(run, plan)
    return changed
  },
}

// Notes the sources of backup volumes that could be read but never were: the storage list of an
// online node, and each listing that has a usable node. An offline node or an unavailable storage
// cannot be read at all: its guests' data is stale, not pending.
function trackUnread(run: SlowRun, plan: ReturnType<typeof planBackupListings>): void {
  const m = run.memory
  const unread = new Set<string>()
  for (const n of run.nodes) if (n.online && !m.storage.has(n.name)) unread.add(`view:${n.name}`)
  for (const [key, { node }] of plan) if (node && !m.backups.has(key)) unread.add(key)
  m.backupsUnread = unread
}

/**
 * True while some source of the instance's backup volumes that could be read never was. No time
 * bound: a listing that never answers leaves its guests' backups unknown, and the Backups tab
 * says so; counting it as empty would raise "never backed up" for every guest it holds.
 */
export function backupsPending(memory: PveSlowMemory): boolean {
  return memory.backupsUnread.size > 0
}

/** vzdump tasks of the last TASK_WINDOW_S seconds per online node. */
export const tasksCollector: Collector<SlowRun, boolean> = {
  name: 'tasks',
  intervalMs: CADENCE_MS.tasks,
  async collect(run) {
    const m = run.memory
    const since = Math.floor(run.now / 1000) - TASK_WINDOW_S
    const query = { typefilter: 'vzdump', since, limit: TASK_LIMIT, source: 'all' }
    let changed = false
    await Promise.all(
      onlineNodes(run).map(async (node) => {
        try {
          const raw = await run.request(`/nodes/${enc(node)}/tasks`, query)
          const list = toBackupTasks(raw, run.instance, node)
          const previous = m.tasks.get(node)
          if (!sameRecords(previous, list)) {
            m.tasks.set(node, reuseRecords(previous, list))
            changed = true
          }
          run.log.succeeded(`tasks:${node}`)
        } catch (err) {
          run.log.failed(`tasks:${node}`, err, { node })
        }
      }),
    )
    return changed
  },
}

/**
 * Guest snapshot lists, spread: each cycle reads the lists older than the interval (or never
 * read), at most max(SNAPSHOT_MIN_BATCH, guests / cycles per interval) of them. Runs every cycle
 * (its interval is per guest, so the scheduler asks it each time); templates are skipped.
 */
export const snapshotsCollector: Collector<SlowRun, boolean> = {
  name: 'snapshots',
  intervalMs: 0,
  async collect(run) {
    const m = run.memory
    const online = new Set(onlineNodes(run))
    const present = new Set<string>()
    let changed = false
    const candidates: SlowGuest[] = []
    const poll = run.pollIntervalMs || DEFAULT_POLL_INTERVAL_MS
    for (const guest of run.guests) {
      if (guest.template) continue
      const key = `${guest.type}/${guest.vmid}`
      present.add(key)
      let entry = m.snapshots.get(key)
      if (entry && entry.node !== guest.node) {
        m.snapshots.delete(key) // migrated: the old ids name the old node
        changed = true
        entry = undefined
      }
      const due = !entry || isDue(entry.at, CADENCE_MS.snapshots, run.now, poll)
      if (online.has(guest.node) && due) candidates.push(guest)
    }
    for (const key of m.snapshots.keys()) {
      if (!present.has(key) && m.snapshots.delete(key)) changed = true
    }
    const cycles = Math.max(1, CADENCE_MS.snapshots / poll)
    const cap = Math.max(SNAPSHOT_MIN_BATCH, Math.ceil(present.size / cycles))
    const batch = candidates.slice(0, cap)
    const results = await Promise.all(batch.map((guest) => refreshGuestSnapshots(run, guest)))
    return changed || results.includes(true)
  },
}

// True when the guest's list changed. A failure keeps the last list until the next round.
async function refreshGuestSnapshots(run: SlowRun, guest: SlowGuest): Promise<boolean> {
  const m = run.memory
  const key = `${guest.type}/${guest.vmid}`
  const previous = m.snapshots.get(key)
  const { node, type, vmid } = guest
  try {
    const raw = await run.request(`/nodes/${enc(node)}/${type}/${vmid}/snapshot`)
    const list = toGuestSnapshots(raw, { instance: run.instance, node, type, vmid })
    const same = previous !== undefined && sameRecords(previous.list, list)
    const kept = same ? previous.list : reuseRecords(previous?.list, list)
    m.snapshots.set(key, { node, at: run.now, list: kept })
    run.log.succeeded(`snapshots:${node}`)
    return !same
  } catch (err) {
    m.snapshots.set(key, { node, at: run.now, list: previous?.list ?? [] })
    run.log.failed(`snapshots:${node}`, err, { node, vmid })
    return false
  }
}

/** The endpoint's backup volumes from memory, in listing order. */
export function buildStorageBackups(run: Pick<SlowRun, 'memory'>): StorageBackup[] {
  return [...run.memory.backups.values()].flatMap((e) => e.list)
}

/** The endpoint's guest snapshots from memory. */
export function buildGuestSnapshots(run: Pick<SlowRun, 'memory'>): GuestSnapshot[] {
  return [...run.memory.snapshots.values()].flatMap((e) => e.list)
}
