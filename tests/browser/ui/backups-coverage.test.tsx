// Backups → Coverage and Jobs (issue 26) in Chromium against a fake worker whose coverage, jobs
// and guest backup answers are the real pure views (src/shared/views/backup-*.ts) over hand-made
// records. The worker side is tested in tests/unit/shared/views/backup-coverage-view.test.ts.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import type { GuestBackup } from '../../../src/shared/model/backup-health.ts'
import type { ResourceViewModel } from '../../../src/shared/views/resource-types.ts'
import { EMPTY_RESOURCE } from '../../../src/shared/views/resource-view.ts'
import { createBackupCoveragePipeline } from '../../../src/shared/views/backup-coverage-view.ts'
import { createBackupJobsView } from '../../../src/shared/views/backup-jobs-view.ts'
import { createGuestBackupView } from '../../../src/shared/views/backup-guest-view.ts'
import { coverageState } from '../../../src/ui/backups/coverage-state.ts'
import { makeAlertConfig } from '../../fixtures/alerts/alert-config.ts'
import { makeGuest } from '../../unit/shared/views/guest-fixtures.ts'
import { makeGuestBackup } from '../../unit/shared/views/backup-coverage-fixtures.ts'
import { FakeWorker, guestRow } from './fake-worker.ts'
import { cleanup, renderApp, stubServer } from './render.tsx'

const config = makeAlertConfig()
const nowS = Math.floor(Date.now() / 1000)
const DAY = 86_400

// The unit fixture, its times moved to now (the page formats ages against the real clock).
const summary = (vmid: number, patch: Partial<GuestBackup> = {}): GuestBackup =>
  makeGuestBackup(vmid, {
    newest: nowS - 3600,
    lastJob: { state: 'ok', time: nowS - 3600, taskId: 't' },
    ...patch,
  })

const SUMMARIES = [
  summary(101, { name: 'fresh-web' }),
  summary(102, { name: 'stale-db', newest: nowS - 10 * DAY }),
  summary(103, {
    name: 'broken-app',
    lastJob: { state: 'failed', time: nowS - 7200, taskId: 't2', error: 'no space left' },
  }),
  summary(104, { name: 'lonely', coverage: 'none' }),
]

const JOBS_INPUT = {
  backupJobs: [
    {
      id: 'lab-backup-1',
      instance: 'lab',
      jobId: 'backup-nightly',
      schedule: '02:00',
      storage: 'pbs-main',
      enabled: true,
      nextRun: nowS + 3600,
      vmids: [],
      all: true,
      exclude: [],
      mode: 'snapshot',
      lastRun: {
        upid: 'UPID:1',
        state: 'failed' as const,
        status: 'job errors',
        startTime: nowS - 7200,
        endTime: nowS - 7000,
        duration: 200,
      },
    },
  ],
  pbsJobs: [],
  backupTasks: [
    {
      id: 'lab-UPID:1',
      node: 'pve1',
      instance: 'lab',
      type: 'vzdump' as const,
      vmid: 0,
      status: 'job errors',
      startTime: nowS - 7200,
      endTime: nowS - 7000,
      logTail: ['INFO: starting backup', 'ERROR: Backup of VM 103 failed - no space left'],
    },
  ],
  config,
  loaded: true,
  now: Date.now(),
}

/** A fake worker answering the issue 26 kinds with the real views over the records above. */
function makeWorker(loaded = true): FakeWorker {
  const api = new FakeWorker()
  const coverage = createBackupCoveragePipeline()
  const jobs = createBackupJobsView()
  const guest = createGuestBackupView()
  let version = 0
  const data = { guestBackups: SUMMARIES, guests: [], config, loaded, now: Date.now() }
  api.answers.backupCoverage = (request) => ({
    ...coverage.compute(data, request),
    version: ++version,
  })
  api.answers.backupJobs = (request) => ({
    ...jobs.compute({ ...JOBS_INPUT, loaded }, request),
    version: ++version,
  })
  api.answers.guestBackup = (request) => ({
    ...guest.compute(
      { ...data, backupJobs: JOBS_INPUT.backupJobs, guests: [makeGuest(103)] },
      request,
    ),
    version: ++version,
  })
  return api
}

function open(path: string, api = makeWorker(), width = 1600) {
  stubServer({
    route: (url) => (url.endsWith('/api/alerts/config') ? Response.json(config) : undefined),
  })
  return { api, ...renderApp(api, path, { width, height: 880 }) }
}

const coverageTable = () => page.getByRole('table', { name: 'Backup coverage' })

beforeEach(async () => {
  await page.viewport(1600, 900)
})
afterEach(() => {
  cleanup()
  Object.assign(coverageState, {
    search: '',
    filter: 'all',
    sort: { key: 'worst', direction: 'asc' },
    problemsOnly: false,
  })
})

describe('backups sub-navigation', () => {
  test('Backups | Coverage | Jobs, keyboard-usable, with the URLs', async () => {
    const { location } = open('/backups/coverage')
    const nav = page.getByRole('navigation', { name: 'Backups views' })
    await expect
      .element(nav.getByRole('link', { name: 'Coverage' }))
      .toHaveAttribute('aria-current', 'page')
    const jobs = nav.getByRole('link', { name: 'Jobs' })
    ;(jobs.element() as HTMLElement).focus()
    await userEvent.keyboard('{Enter}')
    await expect.element(page.getByRole('heading', { name: 'PVE backup jobs' })).toBeVisible()
    expect(location.history?.at(-1)).toBe('/backups/jobs')
  })

  test('the main tab bar keeps Backups current on the coverage and jobs views', async () => {
    open('/backups/jobs')
    const main = page.getByRole('navigation', { name: 'Main' })
    await expect
      .element(main.getByRole('link', { name: 'Backups' }))
      .toHaveAttribute('aria-current', 'page')
  })

  test('an unknown sub-path goes back to the backup list', async () => {
    const { location } = open('/backups/nope')
    await expect.poll(() => location.history?.at(-1)).toBe('/backups')
  })
})

describe('coverage view', () => {
  test('shows the counts and the guests worst first', async () => {
    open('/backups/coverage')
    await expect
      .element(page.getByTestId('coverage-counts'))
      .toHaveTextContent(
        '3 of 4 guests backed up in the last 24 h; 1 overdue; 1 in no job; 1 failed last night',
      )
    const names = () =>
      [...coverageTable().element().querySelectorAll('[role=row][data-id]')].map(
        (row) => row.querySelector('[role=cell]')?.textContent,
      )
    expect(names()).toEqual(['broken-app', 'stale-db', 'lonely', 'fresh-web'])
  })

  test('loads before the summaries arrive, never "0 of 0"', async () => {
    open('/backups/coverage', makeWorker(false))
    await expect.element(page.getByText('Loading backup coverage...')).toBeVisible()
    expect(document.body.textContent).not.toContain('0 of 0')
  })

  test('a filter chip and the search narrow the list', async () => {
    const { api } = open('/backups/coverage')
    await expect.element(coverageTable()).toBeVisible()
    await page.getByRole('button', { name: 'Last job failed' }).click()
    await expect.poll(() => coverageTable().element().querySelectorAll('[data-id]').length).toBe(1)
    expect(api.kindRequests.at(-1)).toMatchObject({ kind: 'backupCoverage', filter: 'failed' })
    await page.getByRole('button', { name: 'All', exact: true }).click()
    await page.getByRole('searchbox', { name: 'Search guests' }).fill('lonely')
    await expect
      .poll(() => coverageTable().element().querySelector('[data-id]')?.getAttribute('data-id'))
      .toBe('lab-pve1-104')
  })

  test('at 390 px: cards, no columns, nothing wider than the screen', async () => {
    await page.viewport(390, 844)
    const { host } = open('/backups/coverage', makeWorker(), 390)
    await expect.element(coverageTable()).toBeVisible()
    expect(coverageTable().element().querySelectorAll('[role=columnheader]')).toHaveLength(0)
    expect(host.scrollWidth).toBeLessThanOrEqual(390)
    expect(document.querySelector('main')!.scrollWidth).toBeLessThanOrEqual(390)
  })
})

describe('jobs view', () => {
  test('a failed run opens its log tail in a dialog; Escape closes it', async () => {
    open('/backups/jobs')
    const table = page.getByRole('table', { name: 'PVE backup jobs' })
    await expect.element(table).toHaveTextContent('backup-nightly')
    await table.getByRole('button', { name: 'Log' }).click()
    const dialog = page.getByRole('dialog', { name: 'Log of backup-nightly' })
    await expect.element(dialog).toHaveTextContent('ERROR: Backup of VM 103 failed - no space left')
    await userEvent.keyboard('{Escape}')
    await expect.element(dialog).not.toBeInTheDocument()
    await expect
      .element(page.getByRole('table', { name: 'Failed backup tasks' }))
      .toHaveTextContent('job errors')
  })

  test('at 390 px the jobs are cards', async () => {
    await page.viewport(390, 844)
    const { host } = open('/backups/jobs', makeWorker(), 390)
    await expect.element(page.getByRole('list', { name: 'PVE backup jobs' })).toBeVisible()
    expect(host.scrollWidth).toBeLessThanOrEqual(390)
    expect(document.querySelector('main')!.scrollWidth).toBeLessThanOrEqual(390)
  })
})

describe('guest backup summary', () => {
  test('the guest page shows the newest backup, its coverage and the last job', async () => {
    const api = makeWorker()
    const model: ResourceViewModel = {
      ...EMPTY_RESOURCE,
      version: 1,
      status: 'found',
      header: { name: 'broken-app', typeLabel: 'VM 103', status: 'running', up: true, place: '' },
      guest: guestRow(103, 'broken-app', {
        id: 'lab-pve1-103',
        detail: {
          os: '',
          ipAddresses: [],
          memory: [],
          filesystems: [],
          interfaces: [],
          diskReason: '',
        },
      }),
    }
    api.resourceFallback = model
    open('/guests/lab-pve1-103', api)
    const box = page.getByTestId('guest-backup')
    await expect.element(box).toHaveTextContent('backup-nightly')
    await expect.element(box).toHaveTextContent('no space left')
    // An hour old, seen from the start of the current minute.
    await expect.element(box).toHaveTextContent(/\((59m|1h) ago\)/)
    expect(api.kindRequests).toContainEqual({ kind: 'guestBackup', guestId: 'lab-pve1-103' })
  })
})
