// The Thresholds and Custom rules tabs in Chromium, over the real worker API and view pipeline run
// in the page (createWorkerApi with a filled store; no socket is opened). HTTP is a stubbed fetch,
// as in the other UI tests (render.tsx stubServer): the real /api/alerts/config route is tested in
// tests/unit/server.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import type { AlertConfig } from '../../../src/shared/model/alerts.ts'
import { resetAlertConfigStore } from '../../../src/ui/alerts/config-store.ts'
import { thresholdEditState } from '../../../src/ui/alerts/threshold-edit-state.ts'
import { Toasts } from '../../../src/ui/components/Toasts.tsx'
import { AlertsPage } from '../../../src/ui/pages/AlertsPage.tsx'
import { WorkerContext } from '../../../src/ui/worker-context.ts'
import { createStateStore } from '../../../src/worker/store.ts'
import { createWorkerApi } from '../../../src/worker/worker-api.ts'
import { makeAlertConfig } from '../../fixtures/alerts/alert-config.ts'
import { makeGuest, makeNode } from '../../unit/shared/views/guest-fixtures.ts'
import { makePbsInstance } from '../../unit/shared/views/backups-fixtures.ts'
import { cleanup, render, stubServer } from './render.tsx'
import { expectOneClearButton } from './search-box-assert.ts'

let serverConfig: AlertConfig
let puts: AlertConfig[]
let gets: number
let putAnswer: () => Response

function mount(
  tab: 'thresholds' | 'custom-rules' = 'thresholds',
  config = makeAlertConfig(),
  width = 1400,
) {
  serverConfig = config
  puts = []
  gets = 0
  putAnswer = () => Response.json({ status: 'success' })
  stubServer({
    route: (url, init) => {
      if (!url.endsWith('/api/alerts/config')) return undefined
      if (init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as AlertConfig
        puts.push(body)
        const answer = putAnswer()
        if (answer.ok) serverConfig = body
        return answer
      }
      gets++
      return Response.json(serverConfig)
    },
  })
  const store = createStateStore()
  store.applyFull({
    nodes: [makeNode('pve1')],
    vms: [makeGuest(101, { name: 'web' }), makeGuest(102, { name: 'mail' })],
    containers: [makeGuest(200, { name: 'dns', type: 'lxc' })],
    pbs: [makePbsInstance('vault', [])],
  })
  const api = createWorkerApi({ store })
  render(
    <WorkerContext.Provider value={api}>
      <AlertsPage tab={tab} />
      <Toasts />
    </WorkerContext.Provider>,
    { width, height: 900 },
  )
}

const unsavedBar = () => page.getByRole('region', { name: 'Unsaved changes' })
const searchBox = () => page.getByRole('searchbox', { name: 'Search resources' })

beforeEach(async () => {
  await page.viewport(1400, 900)
})

afterEach(() => {
  cleanup()
  resetAlertConfigStore()
  thresholdEditState.edit = null
})

describe('Thresholds tab', () => {
  it('edits a guest row, saves it into the working config and sends it with Save Changes', async () => {
    mount()
    await page.getByRole('button', { name: 'Edit thresholds for web' }).click()
    const memory = page.getByRole('textbox', { name: 'Memory % for web' })
    await expect.element(memory).toHaveValue('85')
    await memory.fill('95')
    await expect.element(unsavedBar()).not.toBeInTheDocument()
    await page.getByRole('button', { name: 'Save thresholds for web' }).click()
    await expect.element(unsavedBar()).toBeVisible()
    const row = page.getByRole('row').filter({ hasText: 'web' })
    await expect.element(row.getByText('95')).toBeVisible()
    await expect.element(row.getByText('Custom')).toBeVisible()

    await unsavedBar().getByRole('button', { name: 'Save Changes' }).click()
    await expect.element(page.getByText('Configuration saved successfully!')).toBeVisible()
    expect(puts).toHaveLength(1)
    expect(puts[0]!.overrides).toEqual({ 'lab-pve1-101': { memory: { trigger: 95, clear: 90 } } })
    // The rest of the config goes back as it came: a full PUT.
    expect({ ...puts[0]!, overrides: {} }).toEqual(makeAlertConfig())
    await expect.element(unsavedBar()).not.toBeInTheDocument()
  })

  it('discards the edits by reloading the config from the server', async () => {
    mount()
    await page.getByRole('switch', { name: 'Alerts for mail', exact: true }).click()
    await expect.element(unsavedBar()).toBeVisible()
    await expect
      .element(page.getByRole('switch', { name: 'Alerts for mail', exact: true }))
      .toHaveAttribute('aria-checked', 'false')
    expect(gets).toBe(1)
    await unsavedBar().getByRole('button', { name: 'Discard' }).click()
    await expect.element(page.getByText('Changes discarded')).toBeVisible()
    expect(gets).toBe(2)
    await expect.element(unsavedBar()).not.toBeInTheDocument()
    await expect
      .element(page.getByRole('switch', { name: 'Alerts for mail', exact: true }))
      .toHaveAttribute('aria-checked', 'true')
  })

  it("shows the server's message when a save is refused, and stays unsaved", async () => {
    mount()
    await page.getByRole('switch', { name: 'Connectivity alerts for pve1' }).click()
    putAnswer = () =>
      Response.json(
        { error: 'guestDefaults.cpu.trigger: must be between -1 and 100' },
        { status: 400 },
      )
    await unsavedBar().getByRole('button', { name: 'Save Changes' }).click()
    await expect
      .element(
        page.getByText(
          'Failed to save configuration: guestDefaults.cpu.trigger: must be between -1 and 100',
        ),
      )
      .toBeVisible()
    expect(puts[0]!.overrides).toEqual({ 'lab-pve1': { disableConnectivity: true } })
    await expect.element(unsavedBar()).toBeVisible()
  })

  it('clamps threshold inputs by the rules of spec 001 §5', async () => {
    mount()
    await page.getByRole('button', { name: 'Edit thresholds for web' }).click()
    const cpu = page.getByRole('textbox', { name: 'CPU % for web' })
    await cpu.fill('250')
    await userEvent.tab()
    await expect.element(cpu).toHaveValue('100')
    await cpu.fill('abc')
    await userEvent.tab()
    await expect.element(cpu).toHaveValue('0')
    await cpu.fill('-5')
    await userEvent.tab()
    await expect.element(cpu).toHaveValue('-1')
    const read = page.getByRole('textbox', { name: 'Disk R MB/s for web' })
    await read.fill('20000')
    await userEvent.tab()
    await expect.element(read).toHaveValue('10000')
    await page.getByRole('button', { name: 'Save thresholds for web' }).click()
    // -1 switches the alert off; the table says so.
    const row = page.getByRole('row').filter({ hasText: 'web' })
    await expect.element(row.getByText('Off').first()).toBeVisible()

    const temperature = page.getByRole('textbox', { name: 'Nodes Temp °C' })
    await temperature.fill('190')
    await userEvent.tab()
    await expect.element(temperature).toHaveValue('150')
    await expect.element(unsavedBar()).toBeVisible()
  })

  it('a guest CPU default above 100 is not changed silently: the field says the maximum', async () => {
    mount()
    const cpu = page.getByRole('textbox', { name: 'VMs & Containers CPU %' })
    await cpu.fill('150')
    await userEvent.tab()
    await expect.element(cpu).toHaveValue('100')
    const note = page.getByText('150 is above the maximum of 100; set to 100.')
    await expect.element(note).toBeVisible()
    await expect
      .element(cpu)
      .toHaveAccessibleDescription('150 is above the maximum of 100; set to 100.')
    // Typing again clears the note; a value in range says nothing.
    await cpu.fill('90')
    await expect.element(note).not.toBeInTheDocument()
    await userEvent.tab()
    await expect.element(cpu).toHaveValue('90')
    await expect.element(page.getByText(/above the maximum/)).not.toBeInTheDocument()
  })

  it('the search box shows one clear button, ours', async () => {
    mount()
    await searchBox().fill('web')
    expectOneClearButton(searchBox().element() as HTMLInputElement)
    await page.getByRole('button', { name: 'Clear search' }).click()
    await expect.element(searchBox()).toHaveValue('')
  })

  it('resets the global defaults with 150 and 200 for the guest I/O', async () => {
    mount()
    await page.getByRole('button', { name: 'Reset to defaults' }).click()
    await expect
      .element(page.getByRole('textbox', { name: 'VMs & Containers Disk R MB/s' }))
      .toHaveValue('150')
    await expect
      .element(page.getByRole('textbox', { name: 'VMs & Containers Net In MB/s' }))
      .toHaveValue('200')
    await unsavedBar().getByRole('button', { name: 'Save Changes' }).click()
    await expect.element(unsavedBar()).not.toBeInTheDocument()
    expect(puts[0]!.guestDefaults.networkOut).toEqual({ trigger: 200, clear: 195 })
    expect(puts[0]!.timeThresholds).toEqual({ guest: 10, node: 15, storage: 30, pbs: 30 })
  })

  it('focuses the search when a character is typed anywhere, filters, and clears on Escape', async () => {
    mount()
    await expect.element(page.getByText('dns')).toBeVisible()
    await userEvent.keyboard('m')
    await expect.element(searchBox()).toHaveFocus()
    await userEvent.keyboard('ail')
    await expect.element(searchBox()).toHaveValue('mail')
    await expect.element(page.getByText('dns')).not.toBeInTheDocument()
    await expect.element(page.getByRole('row').filter({ hasText: 'mail' })).toBeVisible()
    await userEvent.keyboard('{Escape}')
    await expect.element(searchBox()).toHaveValue('')
    await expect.element(page.getByText('dns')).toBeVisible()
  })
})

describe('Custom rules tab', () => {
  const rule = (id: string, name: string, priority: number) => ({
    id,
    name,
    description: `${name} guests`,
    enabled: true,
    priority,
    filterConditions: {
      logicalOperator: 'AND' as const,
      filters: [
        { type: 'text' as const, field: 'tags', value: 'db', rawText: 'tags:db' },
        { type: 'metric' as const, field: 'cpu', operator: '>', value: 50, rawText: 'cpu>50' },
      ],
    },
    thresholds: { cpu: { trigger: 90, clear: 85 } },
    notifications: {},
  })

  it('says there are no rules and offers to make one', async () => {
    mount('custom-rules')
    await expect.element(page.getByText('No custom rules')).toBeVisible()
    await expect.element(page.getByRole('button', { name: 'New rule' })).toBeEnabled()
  })

  it('creates a rule in the editor with the worker’s live preview, and saves it with the config', async () => {
    mount('custom-rules')
    await page.getByRole('button', { name: 'New rule' }).click()
    const form = page.getByRole('form', { name: 'New custom rule' })
    const add = form.getByRole('button', { name: 'Add rule' })
    // Nothing typed yet: a name and a filter are missing, so it cannot be added.
    await expect.element(add).toBeDisabled()
    await expect.element(form.getByText('A rule needs a name')).toBeVisible()
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Web tier')
    await form.getByRole('textbox', { name: 'Filter 1' }).fill('web')
    const preview = page.getByRole('region', { name: 'Rule preview' })
    await expect
      .element(preview.getByTestId('rule-preview-count'))
      .toHaveTextContent(/Matches 1 of 3 guests/)
    await expect
      .element(preview.getByRole('list', { name: 'Matching guests' }))
      .toHaveTextContent(/web/)
    // A second filter OR'd in widens the match at once.
    await form.getByRole('button', { name: 'Add filter' }).click()
    await form.getByRole('textbox', { name: 'Filter 2' }).fill('dns')
    await form.getByRole('combobox', { name: 'Guests must match' }).selectOptions('OR')
    await expect
      .element(preview.getByTestId('rule-preview-count'))
      .toHaveTextContent(/Matches 2 of 3 guests/)
    await form.getByRole('textbox', { name: 'CPU %' }).fill('5x')
    await expect.element(add).toBeDisabled()
    await form.getByRole('textbox', { name: 'CPU %' }).fill('50')
    await form.getByRole('switch', { name: 'Webhook notifications' }).click()
    await add.click()
    await expect.element(form).not.toBeInTheDocument()
    const list = page.getByRole('list', { name: 'Custom rules' })
    await expect.element(list).toHaveTextContent(/Web tier/)
    await expect.element(list).toHaveTextContent(/Matches 2 guests · decides 2/)
    await expect.element(list).toHaveTextContent(/no webhooks/)
    await unsavedBar().getByRole('button', { name: 'Save Changes' }).click()
    await expect.element(unsavedBar()).not.toBeInTheDocument()
    const saved = puts[0]!.customRules[0]!
    expect(saved).toMatchObject({
      name: 'Web tier',
      enabled: true,
      filterConditions: {
        logicalOperator: 'OR',
        filters: [
          { type: 'text', rawText: 'web' },
          { type: 'text', rawText: 'dns' },
        ],
      },
      thresholds: { cpu: { trigger: 50, clear: 45 } },
      notifications: { email: { enabled: true }, webhook: { enabled: false } },
    })
    expect(Object.keys(saved.thresholds)).toEqual(['cpu'])
  })

  it('edits a rule, shows which guests a higher rule takes, and orders rules by priority', async () => {
    const config = makeAlertConfig({
      customRules: [
        {
          ...rule('low', 'low', 10),
          filterConditions: {
            logicalOperator: 'AND',
            filters: [{ type: 'text', field: '', value: 'web', rawText: 'web' }],
          },
        },
        {
          ...rule('high', 'high', 20),
          filterConditions: {
            logicalOperator: 'AND',
            filters: [{ type: 'text', field: '', value: 'w', rawText: 'name:web' }],
          },
        },
      ],
    })
    mount('custom-rules', config)
    const list = page.getByRole('list', { name: 'Custom rules' })
    await expect.element(list.getByRole('listitem').first()).toHaveTextContent(/high/)
    await expect
      .element(list.getByRole('listitem').last())
      .toHaveTextContent(/Matches 1 guests · decides 0/)
    await page.getByRole('button', { name: 'Edit rule low' }).click()
    const form = page.getByRole('form', { name: 'Edit custom rule' })
    await expect
      .element(page.getByRole('list', { name: 'Matching guests' }))
      .toHaveTextContent(/taken by high/)
    // Escape leaves the editor without changing anything.
    await userEvent.keyboard('{Escape}')
    await expect.element(form).not.toBeInTheDocument()
    await expect.element(unsavedBar()).not.toBeInTheDocument()
    await page.getByRole('button', { name: 'Move rule low up' }).click()
    await expect.element(list.getByRole('listitem').first()).toHaveTextContent(/low/)
    await expect.element(list.getByRole('listitem').first()).toHaveTextContent(/decides 1/)
    await expect.element(page.getByRole('button', { name: 'Move rule low up' })).toBeDisabled()
    await unsavedBar().getByRole('button', { name: 'Save Changes' }).click()
    await expect.element(unsavedBar()).not.toBeInTheDocument()
    expect(puts[0]!.customRules.map((r) => [r.id, r.priority])).toEqual([
      ['low', 10],
      ['high', 9],
    ])
  })

  it('lists rules; toggling and deleting mark the config unsaved', async () => {
    mount(
      'custom-rules',
      makeAlertConfig({ customRules: [rule('r1', 'db', 10), rule('r2', 'web', 100)] }),
    )
    const items = page.getByRole('listitem')
    await expect.element(items.first()).toHaveTextContent(/web/)
    await expect.element(page.getByText('tags:db AND cpu>50').first()).toBeVisible()
    await expect.element(page.getByText('CPU % 90').first()).toBeVisible()
    await page.getByRole('switch', { name: 'Enable rule db' }).click()
    await expect.element(unsavedBar()).toBeVisible()
    await page.getByRole('button', { name: 'Delete rule web' }).click()
    await expect.element(page.getByText('web guests')).not.toBeInTheDocument()
    await unsavedBar().getByRole('button', { name: 'Save Changes' }).click()
    await expect.element(unsavedBar()).not.toBeInTheDocument()
    expect(puts[0]!.customRules.map((item) => [item.id, item.enabled])).toEqual([['r1', false]])
  })
})

describe('Thresholds tab: Backups card (issue 26)', () => {
  it('edits the backup defaults and sends them with Save Changes', async () => {
    mount()
    const warning = page.getByRole('textbox', { name: 'Backup age warning days' })
    await expect.element(warning).toHaveValue('3')
    await warning.fill('2')
    await userEvent.keyboard('{Enter}')
    await expect.element(unsavedBar()).toBeVisible()
    const grace = page.getByRole('textbox', { name: 'PBS job overdue grace minutes' })
    await grace.fill('abc')
    await userEvent.keyboard('{Enter}')
    await expect.element(grace).toHaveValue('0')
    await page.getByRole('switch', { name: 'Orphaned backups' }).click()
    await expect
      .element(page.getByRole('switch', { name: 'Orphaned backups' }))
      .toHaveAttribute('aria-checked', 'true')
    await unsavedBar().getByRole('button', { name: 'Save Changes' }).click()
    await expect.element(page.getByText('Configuration saved successfully!')).toBeVisible()
    expect(puts).toHaveLength(1)
    expect(puts[0]!.backups).toEqual({
      ...makeAlertConfig().backups,
      ageWarningDays: 2,
      overdueGraceMinutes: 0,
      orphaned: true,
    })
  })

  it('greys out the kinds while backup alerts are off, and resets to the defaults', async () => {
    const config = makeAlertConfig()
    config.backups = { ...config.backups, ageCriticalDays: 30 }
    mount('thresholds', config)
    await page.getByRole('switch', { name: 'Backup alerts', exact: true }).click()
    await expect.element(page.getByRole('switch', { name: 'Failed backup jobs' })).toBeDisabled()
    await page.getByRole('button', { name: 'Reset backups' }).click()
    await expect.element(page.getByRole('switch', { name: 'Failed backup jobs' })).toBeEnabled()
    await expect
      .element(page.getByRole('textbox', { name: 'Backup age critical days' }))
      .toHaveValue('7')
  })

  it('switches backup alerts of a guest and job alerts of a PBS off in their overrides', async () => {
    mount()
    const guest = page.getByRole('switch', { name: 'Backup alerts for web' })
    await expect.element(guest).toHaveAttribute('aria-checked', 'true')
    await guest.click()
    await expect.element(guest).toHaveAttribute('aria-checked', 'false')
    await page.getByRole('switch', { name: 'Backup job alerts for vault' }).click()
    await expect.element(unsavedBar()).toBeVisible()
    await unsavedBar().getByRole('button', { name: 'Save Changes' }).click()
    await expect.element(page.getByText('Configuration saved successfully!')).toBeVisible()
    expect(puts[0]!.overrides).toEqual({
      'lab-pve1-101': { backup: { enabled: false } },
      'pbs-vault': { backup: { enabled: false } },
    })
    // On again: the override goes away entirely.
    await page.getByRole('switch', { name: 'Backup alerts for web' }).click()
    await unsavedBar().getByRole('button', { name: 'Save Changes' }).click()
    await expect.poll(() => puts.length).toBe(2)
    expect(puts[1]!.overrides).toEqual({ 'pbs-vault': { backup: { enabled: false } } })
  })

  it('fits a 390 px phone in dark mode', async () => {
    await page.viewport(390, 800)
    document.documentElement.classList.add('dark')
    try {
      mount('thresholds', makeAlertConfig(), 390)
      const right = (el: Element) => el.getBoundingClientRect().right
      const warning = page.getByRole('textbox', { name: 'Backup age warning days' })
      await expect.element(warning).toBeVisible()
      for (const el of [
        warning.element(),
        page.getByRole('switch', { name: 'Orphaned backups' }).element(),
        page.getByRole('button', { name: 'Reset backups' }).element(),
      ]) {
        expect(right(el)).toBeLessThanOrEqual(390)
      }
    } finally {
      document.documentElement.classList.remove('dark')
    }
  })
})
