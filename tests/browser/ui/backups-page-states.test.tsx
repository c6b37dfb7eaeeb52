// The Backups tab's page states, its busy state while the worker answers new filters, the node /
// namespace selector's reset, and the phone layout; against the harness's fake worker.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { makePbsBackup } from '../../unit/shared/views/backups-fixtures.ts'
import {
  BackupsWorker,
  HOUR,
  SUMMARY,
  SlowBackupsWorker,
  input,
  list,
  now,
  open,
  resetBackupsHarness,
  rows,
  startBackupsPrefs,
  toggle,
} from './backups-harness.ts'
import { cleanup, renderApp } from './render.tsx'

beforeEach(async () => {
  await page.viewport(1400, 900)
})
afterEach(resetBackupsHarness)

describe('backups page states', () => {
  test('no sources, then loading with the first-load hint', async () => {
    open(input({ nodes: [], pbs: [] }))
    await expect.element(page.getByText('No backup sources configured')).toBeVisible()
    cleanup()
    open(input({ guestSnapshots: [], storageBackups: [], pveReceived: false, pbsBackups: [] }))
    await expect.element(page.getByText('Loading backup data...')).toBeVisible()
    await expect
      .element(page.getByText('This may take up to 20 seconds on the first load.'))
      .toBeVisible()
  })

  test('before the first backup read it loads, never says no sources configured', async () => {
    const api = new BackupsWorker(input({ nodes: [], pbs: [] }))
    api.setConnection({ backupsCollected: false })
    api.nodeSummary = SUMMARY
    renderApp(api, '/backups')
    await expect.element(page.getByText('Loading backup data...')).toBeVisible()
    expect(page.getByText('No backup sources configured').query()).toBeNull()
    api.setConnection({ backupsCollected: true })
    await expect.element(page.getByText('No backup sources configured')).toBeVisible()
  })

  test('says whose backups are not all read yet, and stops saying it once they are', async () => {
    const { api } = open()
    await expect.element(list()).toBeVisible()
    expect(page.getByText(/are not all read yet/).query()).toBeNull()
    api.setConnection({ backupsPending: ['alpha', 'charlie'] })
    await expect
      .element(
        page
          .getByRole('status')
          .filter({ hasText: 'The backups of alpha, charlie are not all read' }),
      )
      .toBeVisible()
    api.setConnection({ backupsPending: ['a', 'b', 'c', 'd', 'e'] })
    await expect.element(page.getByText(/backups of a, b, c and 2 more are not/)).toBeVisible()
    api.setConnection({ backupsPending: [] })
    await expect.element(page.getByText(/are not all read yet/)).not.toBeInTheDocument()
  })
})

describe('backups tab while filtering, and on a phone', () => {
  test('Reset also clears the node / namespace selector, which says when it is active', async () => {
    const { api } = open()
    await expect.element(list()).toBeVisible()
    const selector = page.getByRole('combobox', { name: 'Node or namespace' })
    await selector.selectOptions('pve1')
    await expect.poll(() => api.backupsRequests.at(-1)?.selectedNode).toBe('lab-pve1')
    await expect.element(page.getByRole('button', { name: 'Show all nodes' })).toBeVisible()
    await page.getByRole('button', { name: 'Reset' }).click()
    await expect.poll(() => api.backupsRequests.at(-1)?.selectedNode).toBeNull()
    await expect.element(selector).toHaveValue('')
    expect(page.getByRole('button', { name: 'Show all nodes' }).query()).toBeNull()
  })

  test('a filter change dims the list and says Updating… until the worker answers', async () => {
    const api = new SlowBackupsWorker(input())
    api.nodeSummary = SUMMARY
    startBackupsPrefs()
    renderApp(api, '/backups')
    await expect.element(list()).toBeVisible()
    await expect.element(list()).toHaveAttribute('aria-busy', 'false')
    await toggle('Backup source', 'PBS').click()
    // The toggle shows the new choice at once; the list is still the old one, and says so.
    await expect.element(toggle('Backup source', 'PBS')).toHaveAttribute('aria-pressed', 'true')
    await expect.element(list()).toHaveAttribute('aria-busy', 'true')
    await expect.element(page.getByText('Updating…')).toBeVisible()
    api.release()
    await expect.element(list()).toHaveAttribute('aria-busy', 'false')
    expect(page.getByText('Updating…').query()).toBeNull()
    await expect.element(page.getByText(/of \d+ backups/)).toBeVisible()
  })

  test('on a phone the cards scroll with the page, not in a box of their own', async () => {
    await page.viewport(390, 844)
    const many = Array.from({ length: 60 }, (_, i) =>
      makePbsBackup(String(200 + i), now - (i + 1) * HOUR, { namespace: 'prod' }),
    )
    const { host } = open(input({ pbsBackups: many }), { width: 390, height: 844 })
    await expect.element(list()).toBeVisible()
    await expect.poll(() => rows(host).length).toBeGreaterThan(4)
    const box = list().element()
    // The list is as tall as its cards: nothing scrolls inside it.
    expect(box.scrollHeight).toBeLessThanOrEqual(box.clientHeight + 1)
    const main = host.querySelector('main')!
    expect(main.scrollHeight).toBeGreaterThan(main.clientHeight)
    // Scrolling the page brings later cards in: the virtualiser follows the page's scroll.
    main.scrollTop = main.scrollHeight
    await expect.poll(() => host.textContent).toContain('259')
  })
})
