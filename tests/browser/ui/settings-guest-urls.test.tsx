// Settings › Guest URLs (spec 001 §2 Guest URLs tab, §4, §5 Guest custom URL) with a stubbed
// fetch and a fake worker that runs the real guestUrls view. The batch route itself is tested
// against the real server in tests/unit/server/http/metadata-batch.test.ts.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import { makeGuest } from '../../unit/shared/views/guest-fixtures.ts'
import { FakeWorker } from './fake-worker.ts'
import { cleanup, renderApp, stubServer } from './render.tsx'

afterEach(cleanup)

const GUESTS = [
  makeGuest(100, { name: 'web' }),
  makeGuest(101, { name: 'db' }),
  makeGuest(200, { name: 'dns', node: 'pve2', type: 'lxc' }),
]

interface Setup {
  metadata?: () => unknown
  batch?: (body: unknown) => Response
  guests?: typeof GUESTS | null
  snapshot?: ConstructorParameters<typeof FakeWorker>[0]
}

function open({ metadata = () => ({}), batch, guests = GUESTS, snapshot }: Setup = {}) {
  const posts: unknown[] = []
  const fetchMock = stubServer({
    metadata,
    route: (url, init) => {
      if (!url.endsWith('/api/guests/metadata/batch')) return undefined
      const body: unknown = JSON.parse(String(init?.body))
      posts.push(body)
      return batch ? batch(body) : Response.json({ saved: {} })
    },
  })
  const worker = new FakeWorker(snapshot)
  worker.guestUrlGuests = guests
  renderApp(worker, '/settings/urls')
  return { posts, fetchMock, worker }
}

const field = (name: string) => page.getByRole('textbox', { name: `Custom URL for ${name}` })
const saveButton = () => page.getByRole('button', { name: 'Save Changes' })

describe('Guest URLs tab', () => {
  test('lists the guests grouped by node, with stored URLs by id or node-vmid, in one request', async () => {
    const { fetchMock } = open({
      metadata: () => ({
        'lab-pve1-100': { id: 'lab-pve1-100', customUrl: 'https://web.example.com' },
        'pve2-200': { id: 'pve2-200', customUrl: 'http://192.0.2.53' },
      }),
    })
    await expect.element(field('web')).toHaveValue('https://web.example.com')
    await expect.element(field('dns')).toHaveValue('http://192.0.2.53')
    await expect.element(field('db')).toHaveValue('')
    const table = page.getByRole('table', { name: 'Guest URLs' })
    for (const header of ['Name', 'Type', 'VMID', 'Custom URL', 'Actions']) {
      await expect.element(table.getByRole('columnheader', { name: header })).toBeInTheDocument()
    }
    // Node headers (with their cluster and count), then each node's guests by VMID.
    const rows = table
      .getByRole('row')
      .elements()
      .slice(1)
      .map((row) =>
        row.querySelector('input')
          ? row.querySelector('input')!.getAttribute('aria-label')!.replace('Custom URL for ', '')
          : `# ${(row as HTMLElement).innerText.replace(/\s+/g, ' ')}`,
      )
    expect(rows).toEqual([
      '# pve1 lab 2 guests',
      'web (VMID 100 on pve1)',
      'db (VMID 101 on pve1)',
      '# pve2 lab 1 guest',
      'dns (VMID 200 on pve2)',
    ])
    const metadataCalls = fetchMock.mock.calls.filter(([url]) =>
      String(url).endsWith('/api/guests/metadata'),
    )
    expect(metadataCalls).toHaveLength(1)
    // Nothing changed: no save bar.
    expect(saveButton().query()).toBeNull()
  })

  test('shows the loading text until the guests arrive, and "No guests found" for none', async () => {
    open({ guests: null })
    await expect.element(page.getByText('Loading guest URLs...')).toBeInTheDocument()
    cleanup()
    // The first load arrives in chunks: no table whose rows move while the rest arrive.
    open({ snapshot: { loading: true, guestCount: 2, guestsExpected: 3 } })
    await expect.element(page.getByText('2 of 3 guests received')).toBeInTheDocument()
    expect(field('web').query()).toBeNull()
    cleanup()
    open({ guests: [] })
    await expect.element(page.getByText('No guests found')).toBeInTheDocument()
  })

  test('the search filters in the worker view and names what matched', async () => {
    const { worker } = open()
    await expect.element(field('web')).toBeInTheDocument()
    await userEvent.fill(page.getByRole('searchbox', { name: 'Search guests' }), 'lxc')
    await expect.element(field('dns')).toBeInTheDocument()
    expect(field('web').query()).toBeNull()
    await expect.element(page.getByText('1 of 3 guests')).toBeInTheDocument()
    expect(worker.guestUrlsRequests.at(-1)).toMatchObject({ kind: 'guestUrls', search: 'lxc' })
    await userEvent.fill(page.getByRole('searchbox', { name: 'Search guests' }), 'nothing')
    await expect.element(page.getByText('No guests found')).toBeInTheDocument()
  })

  test.each([
    ['https://example.', 'URL appears incomplete - please enter a complete domain or IP address'],
    ['example.com', 'URL must start with http:// or https://'],
    ['ftp://example.com', 'URL must start with http:// or https://'],
    ['http://[bad', 'Invalid URL format'],
    ['http:///path', 'URL must include a valid hostname or IP address'],
    ['https://example../', 'Hostname appears incomplete'],
  ])('%s shows "%s" as typed and no Save', async (typed, text) => {
    open()
    // '[' starts a key name in userEvent's syntax; '[[' types it.
    await userEvent.type(field('web'), typed.replaceAll('[', '[['))
    const input = field('web')
    await expect.element(page.getByText(text, { exact: true })).toBeInTheDocument()
    await expect.element(input).toHaveAttribute('aria-invalid', 'true')
    await expect.element(input).toHaveAccessibleDescription(text)
    await expect.element(page.getByText(/fix the invalid URL to save/)).toBeInTheDocument()
    expect(saveButton().query()).toBeNull()
    await expect.element(page.getByRole('button', { name: 'Test URL of web' })).toBeDisabled()
  })

  test('Test and Clear are enabled only with a URL; Test opens a new tab; Clear sets unsaved', async () => {
    const opened = vi.spyOn(window, 'open').mockReturnValue(null)
    open({ metadata: () => ({ 'lab-pve1-100': { customUrl: 'https://web.example.com' } }) })
    await expect.element(field('web')).toHaveValue('https://web.example.com')
    await expect.element(page.getByRole('button', { name: 'Clear URL of db' })).toBeDisabled()
    await expect.element(page.getByRole('button', { name: 'Test URL of db' })).toBeDisabled()
    await page.getByRole('button', { name: 'Test URL of web' }).click()
    expect(opened).toHaveBeenCalledWith('https://web.example.com', '_blank', 'noopener,noreferrer')
    await page.getByRole('button', { name: 'Clear URL of web' }).click()
    await expect.element(field('web')).toHaveValue('')
    await expect.element(saveButton()).toBeInTheDocument()
    await expect.element(page.getByText('1 unsaved change')).toBeInTheDocument()
    // Typing the stored value back is no change: the bar goes.
    await userEvent.type(field('web'), 'https://web.example.com')
    await expect
      .element(page.getByRole('region', { name: 'Unsaved changes' }))
      .not.toBeInTheDocument()
  })

  test('Save sends every change in one batch request, then the bar goes', async () => {
    const { posts } = open({
      metadata: () => ({ 'pve2-200': { customUrl: 'http://192.0.2.53' } }),
    })
    await userEvent.type(field('web'), ' https://web.example.com ')
    await userEvent.type(field('db'), 'http://192.0.2.20:8080')
    await page.getByRole('button', { name: 'Clear URL of dns' }).click()
    await expect.element(page.getByText('3 unsaved changes')).toBeInTheDocument()
    await saveButton().click()
    await expect.element(page.getByText('Guest URLs saved')).toBeInTheDocument()
    expect(posts).toEqual([
      {
        updates: {
          'lab-pve1-100': { customUrl: 'https://web.example.com' },
          'lab-pve1-101': { customUrl: 'http://192.0.2.20:8080' },
          'lab-pve2-200': { customUrl: '' },
          // The URL was stored under the older node-vmid key: cleared there too.
          'pve2-200': { customUrl: '' },
        },
      },
    ])
    await expect
      .element(page.getByRole('region', { name: 'Unsaved changes' }))
      .not.toBeInTheDocument()
    await expect.element(field('web')).toHaveValue('https://web.example.com')
  })

  test('a refused save lists each guest failure on its own line and keeps the edits', async () => {
    open({
      batch: () =>
        Response.json(
          {
            code: 'FIELD_INVALID',
            message: [
              'updates["lab-pve1-100"].customUrl: must be an http:// or https:// URL with a host.',
              'updates["lab-pve1-101"].customUrl: must be at most 2048 characters.',
            ].join('\n'),
          },
          { status: 400 },
        ),
    })
    await userEvent.type(field('web'), 'https://web.example.com')
    await userEvent.type(field('db'), 'https://db.example.com')
    await saveButton().click()
    const alert = page.getByRole('alert').filter({ hasText: 'Guest URLs were not saved' })
    await expect.element(alert).toBeInTheDocument()
    const lines = alert
      .getByRole('listitem')
      .elements()
      .map((li) => li.textContent)
    expect(lines).toEqual([
      'web: Custom URL must be an http:// or https:// URL with a host.',
      'db: Custom URL must be at most 2048 characters.',
    ])
    await expect.element(field('web')).toHaveValue('https://web.example.com')
    await expect.element(saveButton()).toBeInTheDocument()
  })
})
