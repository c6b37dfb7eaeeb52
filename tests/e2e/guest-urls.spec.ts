// Settings › Guest URLs against the real server (issue 16 acceptance 3): the metadata is read in
// one request, a saved URL goes in one batch call and makes the guest's name a link on the
// dashboard, and the tab's search filters in the worker.
import { expect, test, type Page } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'

let server: ServerProcess

test.beforeAll(async () => {
  server = await createServerProcess()
  await server.start()
})

test.afterAll(async () => {
  await server?.stop()
  server?.cleanup()
})

const urlFields = (page: Page) => page.getByRole('textbox', { name: /^Custom URL for / })

test('a URL saved in the tab makes the guest a link on the dashboard; one read, one write', async ({
  page,
}) => {
  const calls: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/api/guests/metadata')) {
      calls.push(`${request.method()} ${new URL(request.url()).pathname}`)
    }
  })
  await page.goto(`${server.url}/settings/urls`)
  const first = urlFields(page).first()
  await expect(first).toBeVisible()
  const label = (await first.getAttribute('aria-label'))!
  // 'Custom URL for <name> (VMID <vmid> on <node>)'
  const name = label.replace(/^Custom URL for /, '').replace(/ \(VMID \d+ on .*\)$/, '')
  expect(calls).toEqual(['GET /api/guests/metadata'])

  // The validation text appears as the user types and hides the save button.
  await first.pressSequentially('https://example.')
  await expect(
    page.getByText('URL appears incomplete - please enter a complete domain or IP address'),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0)
  await first.fill('http://127.0.0.1:9/app')
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('Guest URLs saved')).toBeVisible()
  expect(calls).toEqual(['GET /api/guests/metadata', 'POST /api/guests/metadata/batch'])

  // The search runs in the worker: only the matching guest stays.
  await page.getByRole('searchbox', { name: 'Search guests' }).fill(name)
  await expect(page.getByRole('textbox', { name: label, exact: true })).toHaveValue(
    'http://127.0.0.1:9/app',
  )

  await page.getByRole('link', { name: 'Main' }).click()
  await page.getByRole('searchbox', { name: 'Search guests' }).fill(name)
  const link = page.getByRole('table', { name: 'Guests' }).getByRole('link', { name, exact: true })
  await expect(link).toHaveAttribute('href', 'http://127.0.0.1:9/app')
})
