// Spec 000 §8 in Chromium against the demo server: while the Add node dialog is open, the setup
// script registers the node. The script's part is played over HTTP exactly as it would run: fetch
// the one-time script, read its registration code, POST the token it created. The toast appears,
// the dialog closes and the node is listed, without a reload.
import { expect, test } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'
import { startSims, type SimProcess } from './support/sims.ts'

let server: ServerProcess
let sims: SimProcess

test.beforeAll(async () => {
  // A simulator of its own: the demo's clusters are registered already.
  sims = await startSims()
  server = await createServerProcess()
  await server.start()
})

test.afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await sims?.stop()
})

/** What the served setup script carries: its one-time registration code. */
async function registrationCode(host: string): Promise<string> {
  const res = await fetch(`${server.url}/api/setup-script-url`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'pve', host }),
  })
  expect(res.status).toBe(200)
  const { url } = (await res.json()) as { url: string }
  const script = await (await fetch(url)).text()
  const code = /^REGISTER_CODE='([^']+)'$/m.exec(script)?.[1]
  expect(code).toBeTruthy()
  return code!
}

test('a node registered by the setup script shows the toast, closes the dialog and is listed', async ({
  page,
}) => {
  const { pve } = sims.details
  await page.goto(`${server.url}/settings/pve`)
  await page.getByRole('button', { name: 'Add PVE Node' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add Proxmox VE node' })
  await expect(dialog).toBeVisible()

  const code = await registrationCode(pve.url)
  const res = await fetch(`${server.url}/api/auto-register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'pve',
      host: pve.url,
      tokenId: pve.tokenId,
      tokenValue: pve.tokenSecret,
      serverName: 'e2e-auto',
      fingerprint: pve.fingerprint,
      code,
    }),
  })
  expect(res.status).toBe(200)

  await expect(
    page.getByText(
      'Proxmox VE node "e2e-auto" was successfully auto-registered and is now being monitored!',
      { exact: true },
    ),
  ).toBeVisible()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('e2e-auto', { exact: true }).first()).toBeVisible()
})
