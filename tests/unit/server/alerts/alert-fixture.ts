// Polls and apps for the alert service tests: guests with chosen cpu values (fractions), so the
// engine's plain guest cpu alert fires (cpu >= 80 % with the default thresholds) or clears.
import path from 'node:path'
import { buildApp, type App, type BuildOptions } from '../../../../src/server/app.ts'
import type { CollectedState } from '../../../../src/server/collect/poller.ts'
import { readConfig } from '../../../../src/server/config.ts'
import type { Guest } from '../../../../src/shared/model/state.ts'
import { makeCollected } from '../collected-fixture.ts'
import { TEST_KDF_COST } from '../helpers.ts'

export const T0 = 1_700_000_000_000

/** A poll at T0 + tick * 10 s with one running VM per entry of `cpus` (vmid → cpu fraction). */
export function cpuPoll(cpus: Record<number, number>, tick: number): CollectedState {
  const base = makeCollected(0, tick)
  const vms: Guest[] = Object.entries(cpus).map(([vmid, cpu]) => ({
    id: `lab-pve1-${vmid}`,
    instance: 'lab',
    node: 'pve1',
    vmid: Number(vmid),
    name: `vm-${vmid}`,
    type: 'qemu',
    status: 'running',
    uptime: 1000 + tick,
    cpu,
    cpus: 2,
    memory: { usage: 10, used: 1, total: 10 },
    disk: { usage: 10, used: 1, total: 10 },
    diskRead: 0,
    diskWrite: 0,
    networkIn: 0,
    networkOut: 0,
    tags: [],
  }))
  return { ...base, vms, containers: [], lastUpdate: T0 + tick * 10_000 }
}

/** A clock the tests move with their polls. */
export function createClock(start = T0) {
  const clock = { t: start, now: () => clock.t }
  return clock
}

/**
 * An app on `dataDir` (auth disabled), for restarts on the same SQLite file; `options.notify`
 * gives it test destinations and channels (support/alert-apps.ts).
 */
export async function buildAppOn(
  dataDir: string,
  now: () => number,
  options: Pick<BuildOptions, 'notify'> = {},
): Promise<App> {
  const config = {
    ...readConfig(
      { PULSE_DATA_DIR: dataDir, PULSE_STATIC_DIR: path.join(dataDir, 'no-dist') },
      process.cwd(),
      '0.0.0-test',
    ),
    authDisabled: true,
  }
  return buildApp({ ...options, config, now, exportKdfCost: TEST_KDF_COST })
}

/**
 * Apply a poll at its own time and wait until the alert service has evaluated it (it works in
 * slices of the event loop, so on a loaded machine the evaluation may end turns after the poll);
 * delays are set to 0 by `useNoDelays`.
 */
export async function poll(app: App, clock: { t: number }, collected: CollectedState) {
  clock.t = collected.lastUpdate
  const result = await app.live.applyCollected(collected)
  await app.alerts.settled()
  return result
}

/** PUT the current config with every alert delay at 0, so an alert fires on its first poll. */
export async function useNoDelays(
  app: App,
  options: { groupNotifications?: boolean } = {},
): Promise<void> {
  const config = (await app.http.inject({ method: 'GET', url: '/api/alerts/config' })).json()
  // Notification tests send each alert on its own at once: no 5-minute grouping window.
  if (options.groupNotifications === false) config.schedule.grouping.enabled = false
  config.timeThreshold = 0
  config.timeThresholds = { guest: 0, node: 0, storage: 0, pbs: 0 }
  config.metricTimeThresholds = {}
  const res = await app.http.inject({ method: 'PUT', url: '/api/alerts/config', payload: config })
  if (res.statusCode !== 200) throw new Error(`config: ${res.body}`)
}
