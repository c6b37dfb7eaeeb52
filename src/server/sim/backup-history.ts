// Seeds the weeks of backups and vzdump tasks that precede the estate's build time, so a fresh
// simulator already looks lived-in: nightly runs per node, a few manual runs, retention applied.

import type { SimClusterModel, SimGuest } from './model.ts'
import { hash01 } from './prng.ts'
import { addBackup, findStore, isProtected, nightlyRun, taskStatus } from './backups.ts'
import { guestOutcome, planRun, runDuration, slotLength, squeezeFactor } from './backup-runs.ts'
import type { BackupStore } from './backups.ts'
import { inBackupJob } from './guest-profile.ts'
import { orphanSeries } from './backup-jobs.ts'
import { finishTask, startTask } from './tasks.ts'

const DAY = 86_400

/** Seeds `days` days of nightly and manual backups (and their tasks) before the build time. */
export function seedBackupHistory(cluster: SimClusterModel, days: number): void {
  const state = cluster.backups
  const toPbs = cluster.storages.find((s) => s.storage === state.target)?.plugintype === 'pbs'
  cluster.nodes.forEach((_node, index) => {
    const store = findStore(cluster, state.target, index)
    if (store === undefined) return
    const guests = cluster.guests
      .filter((g) => g.node === index && inBackupJob(cluster, g))
      .sort((a, b) => a.vmid - b.vmid)
    const history = new NodeHistory(cluster, store, index, guests, toPbs)
    // Newest night first, so retention drops older backups before they are ever stored.
    for (let k = 1; k <= days; k++) history.seedNight(state.nextRunSec - k * DAY, k)
    for (const series of store.series.values()) series.times.reverse()
    seedManual(cluster, index, days, cluster.builtAtSec)
    cluster.tasks.backup[index]?.sort((a, b) => a.starttime - b.starttime)
  })
  // Backups of a guest destroyed five days ago: nobody prunes them (orphans).
  const store = findStore(cluster, state.target, 0)
  if (store !== undefined) {
    const orphan = orphanSeries(cluster, state.nextRunSec)
    store.series.set(orphan.vmid, orphan)
  }
}

/**
 * The nightly runs of one node, seeded with flat arrays: at 100,000 guests this is millions of
 * guest-nights, so nothing here allocates per guest per night.
 */
class NodeHistory {
  /** Guests stopped now were still running (and backed up) until this many days ago. */
  private readonly stoppedDays: Int32Array
  /** Unprotected backups kept so far per guest (retention keeps the newest `keep`). */
  private readonly kept: Int32Array
  private readonly durations: Float64Array

  constructor(
    private readonly cluster: SimClusterModel,
    private readonly store: BackupStore,
    private readonly node: number,
    private readonly guests: SimGuest[],
    private readonly toPbs: boolean,
  ) {
    this.stoppedDays = Int32Array.from(guests, (g) =>
      g.running ? 0 : 1 + Math.floor(hash01(cluster.seed, g.vmid, 42) * 20),
    )
    this.kept = new Int32Array(guests.length)
    this.durations = new Float64Array(guests.length)
  }

  seedNight(runSec: number, daysAgo: number): void {
    const { cluster, guests, durations, stoppedDays } = this
    const now = cluster.builtAtSec
    let total = 0
    for (let i = 0; i < guests.length; i++) {
      if ((stoppedDays[i] as number) >= daysAgo) continue
      durations[i] = runDuration(cluster.seed, guests[i] as SimGuest, runSec, this.toPbs)
      total += (durations[i] as number) + 2
    }
    const squeeze = squeezeFactor(total)
    const task = startTask(cluster, this.node, 'vzdump', '', runSec)
    const vmids: number[] = []
    for (let i = 0; i < guests.length; i++) {
      if ((stoppedDays[i] as number) < daysAgo) vmids.push((guests[i] as SimGuest).vmid)
    }
    task.run = nightlyRun(cluster, vmids)
    let t = runSec + 3
    let warnings = 0
    let errors = 0
    let finished = 0
    for (let i = 0; i < guests.length; i++) {
      if ((stoppedDays[i] as number) >= daysAgo) continue
      const guest = guests[i] as SimGuest
      const start = t
      t += slotLength(durations[i] as number, squeeze) + 2
      if (t - 2 > now) continue
      finished++
      const outcome = guestOutcome(cluster, guest.vmid, runSec)
      if (outcome === 'error') errors++
      else {
        if (outcome === 'warning') warnings++
        this.keep(i, guest, start)
      }
    }
    if (t - 2 <= now) {
      finishTask(task, t, taskStatus(errors, warnings))
      return
    }
    // The build time falls inside this run: what finished is stored, the rest is still running.
    const included = guests.filter((_g, i) => (stoppedDays[i] as number) < daysAgo)
    const entries = planRun(cluster, included, runSec, this.toPbs)
    const { store, node } = this
    cluster.backups.runs.push({
      node,
      task,
      store,
      entries,
      cursor: finished,
      warnings,
      errors,
      single: false,
    })
  }

  // Retention as the job's prune settings apply it: protected backups are never pruned and do
  // not count towards `keep` (pruneSeries applies the same rule to live runs).
  private keep(i: number, guest: SimGuest, start: number): void {
    const { cluster } = this
    if (!isProtected(cluster.seed, guest.vmid, start)) {
      const count = this.kept[i] as number
      if (count >= cluster.backups.keep) return
      this.kept[i] = count + 1
    }
    addBackup(cluster, this.store, guest, start)
  }
}

// A handful of "Backup now" runs per node to local storage during working hours.
function seedManual(cluster: SimClusterModel, node: number, days: number, now: number): void {
  const { aux } = cluster
  const local = findStore(cluster, 'local', node)
  const candidates = cluster.guests.filter((g) => g.node === node && g.running && g.template === 0)
  if (local === undefined || candidates.length === 0) return
  const count = aux.int(0, 4)
  for (let i = 0; i < count; i++) {
    const day = Math.floor(now / DAY) - aux.int(1, days)
    const startSec = day * DAY + aux.int(8 * 3600, 18 * 3600)
    const guest = aux.pick(candidates)
    const entries = planRun(cluster, [guest], startSec, false)
    const task = startTask(cluster, node, 'vzdump', String(guest.vmid), startSec)
    task.run = { storage: 'local', vmids: Int32Array.of(guest.vmid) }
    const entry = entries[0]
    if (entry !== undefined && entry.outcome !== 'error')
      addBackup(cluster, local, guest, entry.start)
    const failed = entry?.outcome === 'error' ? 1 : 0
    finishTask(
      task,
      (entry?.end ?? startSec) + 2,
      taskStatus(failed, entry?.outcome === 'warning' ? 1 : 0, guest.vmid),
    )
  }
  for (const series of local.series.values()) series.times.sort((a, b) => a - b)
}
