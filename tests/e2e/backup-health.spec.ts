// Backups that warn end to end (issue 26 acceptance): the built app, the real server and the
// default demo estate (3 clusters, a PBS) in Chromium. Within two minutes of the start a
// backup-age, a failed-backup-job, a PBS job (failed or overdue) and a not-backed-up alert stand in
// /api/alerts/active and on Alerts → Overview; the coverage view shows the counts and the
// worst-first list; the jobs view shows a failed job whose log tail opens.
import { expect, test } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'

let server: ServerProcess

test.beforeAll(async () => {
  // The demo's defaults, as `npm run demo` starts them.
  server = await createServerProcess({})
  await server.start()
})

test.afterAll(async () => {
  await server.stop()
  server.cleanup()
})

interface ActiveAlert {
  id: string
  type: string
  message: string
}

async function activeAlerts(): Promise<ActiveAlert[]> {
  const res = await fetch(`${server.url}/api/alerts/active`)
  return (await res.json()) as ActiveAlert[]
}

const BACKUP_KINDS = [
  ['backup-age'],
  ['backup-failed'],
  ['pbs-job-failed', 'pbs-job-overdue'],
  ['backup-uncovered'],
] as const

test('the backup alert kinds stand within two minutes, in the API and on Overview', async ({
  page,
}) => {
  test.setTimeout(180_000)
  let alerts: ActiveAlert[] = []
  await expect
    .poll(
      async () => {
        alerts = await activeAlerts()
        const types = new Set(alerts.map((a) => a.type))
        return BACKUP_KINDS.filter((kinds) => !kinds.some((k) => types.has(k))).map((k) => k[0])
      },
      { timeout: 120_000, intervals: [2_000] },
    )
    .toEqual([])
  const failed = alerts.find((a) => a.type === 'backup-failed')!
  await page.goto(`${server.url}/alerts`)
  await expect(page.getByText(failed.message, { exact: true }).first()).toBeVisible()
})

test('the coverage view shows the counts and the worst first; the jobs view a failed log', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await page.goto(`${server.url}/backups/coverage`)
  await expect(page.getByTestId('coverage-counts')).toContainText(
    /[\d,]+ of [\d,]+ guests backed up in the last 24 h/,
    { timeout: 120_000 },
  )
  // Worst first: the first row's last job failed (the simulator's chronic failures).
  await expect(page.getByRole('row').nth(1)).toContainText(/failed/i)

  await page.goto(`${server.url}/backups/jobs`)
  const pbsJobs = page.getByRole('table', { name: 'PBS jobs' })
  await expect(pbsJobs.getByRole('row').nth(1)).toBeVisible({ timeout: 90_000 })
  await pbsJobs.getByRole('button', { name: 'Log' }).first().click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText('TASK ERROR')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})
