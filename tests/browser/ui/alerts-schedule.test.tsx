// The Schedule tab in Chromium. The config store is fed by a stubbed fetch, as in
// alerts-thresholds.test.tsx (render.tsx stubServer): the real /api/alerts/config route and its
// validation of the schedule are tested in tests/unit/server.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import type { AlertConfig, AlertSchedule } from '../../../src/shared/model/alerts.ts'
import { alertConfigState, resetAlertConfigStore } from '../../../src/ui/alerts/config-store.ts'
import { Toasts } from '../../../src/ui/components/Toasts.tsx'
import { AlertsPage } from '../../../src/ui/pages/AlertsPage.tsx'
import { setDark } from '../../../src/ui/state.ts'
import { makeAlertConfig } from '../../fixtures/alerts/alert-config.ts'
import { cleanup, render, stubServer } from './render.tsx'

let puts: AlertConfig[]

/** The fixture's config with the three escalation levels the server's defaults carry. */
function baseConfig(): AlertConfig {
  const config = makeAlertConfig()
  config.schedule.escalation.levels = [
    { after: 15, notify: 'email' },
    { after: 30, notify: 'webhook' },
    { after: 60, notify: 'all' },
  ]
  return config
}

function mount(config = baseConfig(), size = { width: 1400, height: 900 }) {
  let serverConfig = config
  puts = []
  stubServer({
    route: (url, init) => {
      if (!url.endsWith('/api/alerts/config')) return undefined
      if (init?.method === 'PUT') {
        serverConfig = JSON.parse(String(init.body)) as AlertConfig
        puts.push(serverConfig)
        return Response.json({ status: 'success' })
      }
      return Response.json(serverConfig)
    },
  })
  return render(
    <>
      <AlertsPage tab="schedule" />
      <Toasts />
    </>,
    size,
  )
}

const unsavedBar = () => page.getByRole('region', { name: 'Unsaved changes' })
const schedule = (): AlertSchedule => alertConfigState.working!.schedule
const card = (name: string) => page.getByRole('region', { name })
const textbox = (name: string) => page.getByRole('textbox', { name, exact: true })

async function commit(name: string, text: string) {
  const input = textbox(name)
  await input.fill(text)
  await userEvent.tab()
  return input
}

async function loaded() {
  await expect.element(card('Quiet hours')).toBeVisible()
}

beforeEach(async () => {
  await page.viewport(1400, 900)
})

afterEach(() => {
  cleanup()
  resetAlertConfigStore()
})

describe('Schedule tab', () => {
  it('changes the working config with every control, marks it dirty and sends it on save', async () => {
    mount()
    await loaded()
    await expect.element(unsavedBar()).not.toBeInTheDocument()

    await page.getByRole('switch', { name: 'Enable quiet hours' }).click()
    await expect.element(unsavedBar()).toBeVisible()
    await textbox('Start').fill('23:30')
    await textbox('End').fill('06:15')
    await page.getByRole('combobox', { name: 'Time zone' }).selectOptions('Europe/Berlin')
    await page.getByRole('button', { name: 'Saturday' }).click()
    await page.getByRole('checkbox', { name: /Hold critical offline alerts too/ }).click()
    await commit('Cooldown minutes', '45')
    await commit('Max alerts per hour', '7')
    await page.getByRole('checkbox', { name: 'Group by guest' }).click()
    await page.getByRole('switch', { name: 'Enable storm control' }).click()
    await commit('Storm threshold', '150')
    await page.getByRole('switch', { name: 'Enable escalation' }).click()
    await page.getByRole('combobox', { name: 'Level 2 notify' }).selectOptions('all')
    await commit('Level 1 after minutes', '10')

    await expect
      .element(page.getByRole('list', { name: 'Schedule summary' }))
      .toHaveTextContent(
        'Quiet hours 23:30-06:15 Europe/Berlin on Mon, Tue, Wed, Thu, Fri and Sat: warnings and critical offline alerts are held, other critical alerts are still sent.',
      )
    await unsavedBar().getByRole('button', { name: 'Save Changes' }).click()
    await expect.element(page.getByText('Configuration saved successfully!')).toBeVisible()
    await expect.element(unsavedBar()).not.toBeInTheDocument()
    expect(puts).toHaveLength(1)
    const base = baseConfig().schedule
    expect(puts[0]!.schedule).toEqual({
      ...base,
      quietHours: {
        ...base.quietHours,
        enabled: true,
        start: '23:30',
        end: '06:15',
        timezone: 'Europe/Berlin',
        days: { ...base.quietHours.days, saturday: true },
        suppress: { performance: false, storage: false, offline: true },
      },
      cooldown: 45,
      maxAlertsHour: 7,
      grouping: { ...base.grouping, byGuest: true },
      storm: { enabled: !base.storm.enabled, threshold: 150 },
      escalation: {
        enabled: true,
        levels: [
          { after: 10, notify: 'email' },
          { after: 30, notify: 'all' },
          { after: 60, notify: 'all' },
        ],
      },
    })
    // Nothing outside the schedule changed.
    expect({ ...puts[0]!, schedule: base }).toEqual(baseConfig())
  })

  it('says on the card what its summary says: warnings wait, critical alerts are sent (issue 24 item 12)', async () => {
    mount()
    await loaded()
    await page.getByRole('switch', { name: 'Enable quiet hours' }).click()
    const quiet = card('Quiet hours')
    const summary = page.getByRole('list', { name: 'Schedule summary' })
    const held = quiet.getByRole('status', { name: 'During quiet hours' })
    // The reference's meaning: no flag set, every critical alert is still sent.
    await expect
      .element(held)
      .toHaveTextContent('Warnings are held, critical alerts are still sent.')
    await expect
      .element(summary)
      .toHaveTextContent('on weekdays: warnings are held, critical alerts are still sent.')
    await expect.element(quiet).not.toHaveTextContent(/not even critical|non-critical/i)
    await expect.element(summary).not.toHaveTextContent(/not even critical/)
    // A flag holds that category's critical alerts too; card and summary both say so.
    await page.getByRole('checkbox', { name: /Hold critical offline alerts too/ }).click()
    expect(schedule().quietHours.suppress).toEqual({
      performance: false,
      storage: false,
      offline: true,
    })
    await expect
      .element(held)
      .toHaveTextContent(
        'Warnings and critical offline alerts are held, other critical alerts are still sent.',
      )
    await expect
      .element(summary)
      .toHaveTextContent(
        'warnings and critical offline alerts are held, other critical alerts are still sent.',
      )
    await page.getByRole('checkbox', { name: /Hold critical performance alerts too/ }).click()
    await page.getByRole('checkbox', { name: /Hold critical storage alerts too/ }).click()
    await expect.element(held).toHaveTextContent('Everything is held, even critical alerts.')
    await expect.element(summary).toHaveTextContent('everything is held, even critical alerts.')
    // Which day decides after midnight (issue 24 item 16).
    await expect
      .element(quiet)
      .toHaveTextContent(
        'The day it is decides: with 22:00-08:00 on Monday to Friday, Monday 02:00 is quiet and Saturday 02:00 is not.',
      )
  })

  it('clamps cooldown to 5-120 and max per hour to 1-10; escalation keeps the previous value', async () => {
    mount()
    await loaded()
    await expect.element(await commit('Cooldown minutes', '2')).toHaveValue('5')
    expect(schedule().cooldown).toBe(5)
    await expect.element(await commit('Cooldown minutes', '500')).toHaveValue('120')
    await expect.element(await commit('Cooldown minutes', 'soon')).toHaveValue('120')
    expect(schedule().cooldown).toBe(120)
    await expect.element(await commit('Max alerts per hour', '0')).toHaveValue('1')
    await expect.element(await commit('Max alerts per hour', '99')).toHaveValue('10')
    expect(schedule().maxAlertsHour).toBe(10)
    await expect.element(await commit('Storm threshold', '1')).toHaveValue('2')
    expect(schedule().storm.threshold).toBe(2)

    await expect.element(await commit('Level 1 after minutes', '200')).toHaveValue('15')
    await expect.element(await commit('Level 1 after minutes', '4')).toHaveValue('15')
    await expect.element(await commit('Level 1 after minutes', 'x')).toHaveValue('15')
    expect(schedule().escalation.levels[0]!.after).toBe(15)
    await expect.element(await commit('Level 1 after minutes', '180')).toHaveValue('180')
    expect(schedule().escalation.levels[0]!.after).toBe(180)
  })

  it('turns cooldown off as 0 and back on to the minutes it had', async () => {
    mount()
    await loaded()
    await commit('Cooldown minutes', '50')
    await page.getByRole('switch', { name: 'Enable cooldown' }).click()
    expect(schedule().cooldown).toBe(0)
    await expect.element(textbox('Cooldown minutes')).not.toBeInTheDocument()
    await page.getByRole('switch', { name: 'Enable cooldown' }).click()
    await expect.element(textbox('Cooldown minutes')).toHaveValue('50')
    expect(schedule().cooldown).toBe(50)
  })

  it("labels the days 'Weekdays only' or 'Weekends only' only when they are exactly that", async () => {
    mount()
    await loaded()
    const days = card('Quiet hours')
    await expect.element(days.getByText('Weekdays only')).toBeVisible()
    await page.getByRole('button', { name: 'Sunday' }).click()
    await expect.element(days.getByText('Weekdays only')).not.toBeInTheDocument()
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']) {
      await page.getByRole('button', { name: day }).click()
    }
    await expect
      .element(page.getByRole('button', { name: 'Monday' }))
      .toHaveAttribute('aria-pressed', 'false')
    await expect.element(days.getByText('Weekends only')).toBeVisible()
    expect(schedule().quietHours.days).toEqual({
      monday: false,
      tuesday: false,
      wednesday: false,
      thursday: false,
      friday: false,
      saturday: true,
      sunday: true,
    })
  })

  it('shows the grouping window in minutes and stores it in seconds in both fields', async () => {
    mount()
    await loaded()
    const slider = page.getByRole('slider', { name: 'Grouping window' })
    await expect.element(slider).toHaveValue('5')
    ;(slider.element() as HTMLInputElement).focus()
    await userEvent.keyboard('{ArrowRight}{ArrowRight}')
    await expect.element(slider).toHaveAttribute('aria-valuetext', '7 minutes')
    expect(schedule().groupingWindow).toBe(420)
    expect(schedule().grouping.window).toBe(420)
    await userEvent.keyboard('{End}')
    await expect.element(slider).toHaveValue('30')
    expect(schedule().groupingWindow).toBe(1800)
    await userEvent.keyboard('{Home}')
    await expect.element(slider).toHaveAttribute('aria-valuetext', '1 minute')
    expect(schedule().grouping.window).toBe(60)
    await expect.element(unsavedBar()).toBeVisible()
    await expect
      .element(page.getByRole('list', { name: 'Schedule summary' }))
      .toHaveTextContent('Alerts within 1 minute are grouped by node.')
  })

  it('adds levels 30 minutes after the last (15 for the first, notify all) and removes them', async () => {
    mount()
    await loaded()
    for (const n of [3, 2, 1]) {
      await page.getByRole('button', { name: `Remove escalation level ${n}` }).click()
    }
    expect(schedule().escalation.levels).toEqual([])
    await expect.element(page.getByText('No escalation levels yet.')).toBeVisible()
    const add = page.getByRole('button', { name: 'Add escalation level' })
    await add.click()
    await expect.element(textbox('Level 1 after minutes')).toHaveValue('15')
    await expect.element(page.getByRole('combobox', { name: 'Level 1 notify' })).toHaveValue('all')
    await commit('Level 1 after minutes', '40')
    await add.click()
    await expect.element(textbox('Level 2 after minutes')).toHaveValue('70')
    expect(schedule().escalation.levels).toEqual([
      { after: 40, notify: 'all' },
      { after: 70, notify: 'all' },
    ])
    await page.getByRole('button', { name: 'Remove escalation level 1' }).click()
    expect(schedule().escalation.levels).toEqual([{ after: 70, notify: 'all' }])
    await expect.element(textbox('Level 1 after minutes')).toHaveValue('70')
  })

  it('resets to the §9 defaults as an unsaved edit, sent only by Save Changes', async () => {
    const config = baseConfig()
    const custom = config.schedule
    custom.quietHours.enabled = true
    custom.quietHours.timezone = 'Asia/Tokyo'
    custom.quietHours.days.saturday = true
    custom.cooldown = 0
    custom.maxAlertsHour = 9
    custom.groupingWindow = 900
    custom.grouping = { enabled: false, window: 900, byNode: false, byGuest: true }
    custom.escalation = { enabled: true, levels: [{ after: 100, notify: 'webhook' }] }
    custom.storm = { enabled: false, threshold: 500 }
    mount(config)
    await loaded()
    await page.getByRole('button', { name: 'Reset defaults' }).click()
    await expect.element(unsavedBar()).toBeVisible()
    expect(puts).toHaveLength(0)
    await expect.element(textbox('Cooldown minutes')).toHaveValue('30')
    await expect.element(page.getByRole('slider', { name: 'Grouping window' })).toHaveValue('5')
    await unsavedBar().getByRole('button', { name: 'Save Changes' }).click()
    await expect.element(unsavedBar()).not.toBeInTheDocument()
    expect(puts[0]!.schedule).toEqual({
      quietHours: {
        enabled: false,
        start: '22:00',
        end: '08:00',
        timezone: 'Asia/Tokyo',
        days: {
          monday: true,
          tuesday: true,
          wednesday: true,
          thursday: true,
          friday: true,
          saturday: false,
          sunday: false,
        },
        suppress: { performance: false, storage: false, offline: false },
      },
      cooldown: 30,
      groupingWindow: 300,
      maxAlertsHour: 3,
      escalation: {
        enabled: false,
        levels: [
          { after: 15, notify: 'email' },
          { after: 30, notify: 'webhook' },
          { after: 60, notify: 'all' },
        ],
      },
      grouping: { enabled: true, window: 300, byNode: true, byGuest: false },
      storm: { enabled: true, threshold: 20 },
    })
  })

  it('offers about 70 time zones with their UTC offset, the saved one selected', async () => {
    const config = baseConfig()
    config.schedule.quietHours.timezone = 'Asia/Kolkata'
    mount(config)
    await loaded()
    const select = page.getByRole('combobox', { name: 'Time zone' })
    await expect.element(select).toHaveValue('Asia/Kolkata')
    const options = [...(select.element() as HTMLSelectElement).options]
    expect(options.length).toBeGreaterThanOrEqual(65)
    expect(options.find((o) => o.value === 'Asia/Kolkata')!.text).toBe('Asia/Kolkata (UTC+05:30)')
    expect(options.find((o) => o.value === 'UTC')!.text).toMatch(/^UTC \(UTC\+00:00\)/)
    // The browser's own zone comes first.
    expect(options[0]!.value).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone)
  })

  it('is usable on a 390 px phone in dark mode', async () => {
    await page.viewport(390, 800)
    setDark(true)
    try {
      const host = mount(baseConfig(), { width: 390, height: 800 })
      await loaded()
      // Nothing of the tab sticks out (the sub-tab bar scrolls sideways by design).
      const wide = [...host.querySelectorAll('*')].filter(
        (el) => !el.closest('nav') && el.getBoundingClientRect().right > 390,
      )
      expect(wide.map((el) => el.outerHTML.slice(0, 80))).toEqual([])
      const quiet = card('Quiet hours').element()
      expect(quiet.getBoundingClientRect().right).toBeLessThanOrEqual(390)
      expect(getComputedStyle(quiet).backgroundColor).not.toBe('rgb(255, 255, 255)')
      for (const name of ['Alert escalation', 'Configuration summary', 'Storm control']) {
        expect(card(name).element().getBoundingClientRect().right).toBeLessThanOrEqual(390)
      }
      // Still operable: a day toggle and Save Changes within reach.
      await page.getByRole('button', { name: 'Sunday' }).click()
      await expect.element(unsavedBar().getByRole('button', { name: 'Save Changes' })).toBeVisible()
    } finally {
      setDark(false)
    }
  })
})
