// The silence dialog's rules (issue 28): the targets an alert offers, the body a form makes and
// the field it names when it cannot, the order Overview lists silences in.
import { describe, expect, it } from 'vitest'
import type { SilenceView } from '../../../../src/shared/model/silences.ts'
import { formatLeft } from '../../../../src/shared/views/alerts-overview.ts'
import {
  defaultWindow,
  listedSilences,
  silenceBody,
  targetsOfAlert,
  type SilenceForm,
} from '../../../../src/shared/views/silence-form.ts'

const NOW = Date.parse('2024-03-01T12:00:00Z')
const row = { id: 'a1', resourceId: 'lab-pve1-101', node: 'pve1', instance: 'lab' }

function form(over: Partial<SilenceForm> = {}): SilenceForm {
  return {
    target: { kind: 'node', instance: 'lab', node: 'pve1' },
    duration: '60',
    until: NaN,
    comment: '  reboot ',
    weekly: false,
    window: defaultWindow('Europe/Berlin'),
    ...over,
  }
}

describe('silence form', () => {
  it('offers the alert, then its resource and the node it runs on', () => {
    expect(targetsOfAlert({ ...row, resourceType: 'VM' })).toEqual([
      { kind: 'alert', alertId: 'a1' },
      { kind: 'guest', id: 'lab-pve1-101' },
      { kind: 'node', instance: 'lab', node: 'pve1' },
    ])
    expect(targetsOfAlert({ ...row, resourceId: 'node-pve1', resourceType: 'Node' })).toEqual([
      { kind: 'alert', alertId: 'a1' },
      { kind: 'node', instance: 'lab', node: 'pve1' },
    ])
    expect(targetsOfAlert({ ...row, instance: 'pbs1', resourceType: 'PBS' })[1]).toEqual({
      kind: 'pbs',
      instance: 'pbs1',
    })
  })

  it('makes a duration body, an until body, and a weekly body', () => {
    expect(silenceBody(form(), NOW)).toEqual({
      ok: true,
      body: {
        target: { kind: 'node', instance: 'lab', node: 'pve1' },
        comment: 'reboot',
        durationMinutes: 60,
      },
    })
    const until = NOW + 3_600_000
    expect(silenceBody(form({ duration: 'until', until }), NOW)).toMatchObject({
      ok: true,
      body: { endsAt: new Date(until).toISOString() },
    })
    const weekly = silenceBody(form({ weekly: true, duration: 'open' }), NOW)
    expect(weekly).toMatchObject({ ok: true, body: { window: defaultWindow('Europe/Berlin') } })
    expect(weekly.ok && 'endsAt' in weekly.body).toBe(false)
  })

  it('names what to fix', () => {
    const field = (f: SilenceForm) => {
      const out = silenceBody(f, NOW)
      return out.ok ? null : out.field
    }
    expect(field(form({ target: { kind: 'node', instance: 'lab', node: ' ' } }))).toBe('target')
    expect(field(form({ target: { kind: 'search', query: '' } }))).toBe('target')
    expect(field(form({ duration: 'until', until: NOW - 1 }))).toBe('until')
    expect(field(form({ duration: 'until', until: NaN }))).toBe('until')
    const noDays = {
      ...defaultWindow('UTC'),
      days: { ...defaultWindow('UTC').days, sunday: false },
    }
    expect(field(form({ weekly: true, duration: 'open', window: noDays }))).toBe('window')
    const empty = { ...defaultWindow('UTC'), end: '02:00' }
    expect(field(form({ weekly: true, duration: 'open', window: empty }))).toBe('window')
  })

  it('lists active silences soonest to end first, then upcoming soonest to start', () => {
    const s = (id: string, over: Partial<SilenceView>): SilenceView => ({
      id,
      target: { kind: 'tag', tag: id },
      comment: '',
      author: 'ann',
      createdAt: '2024-03-01T00:00:00Z',
      startsAt: '2024-03-01T00:00:00Z',
      endsAt: null,
      state: 'active',
      ...over,
    })
    const listed = listedSilences([
      s('open', { activeUntil: null }),
      s('later', { state: 'upcoming', nextStart: '2024-03-05T00:00:00Z' }),
      s('ending', { activeUntil: '2024-03-01T13:00:00Z' }),
      s('gone', { state: 'ended' }),
      s('sooner', { state: 'upcoming', nextStart: '2024-03-02T00:00:00Z' }),
    ])
    expect(listed.map((x) => x.id)).toEqual(['ending', 'open', 'sooner', 'later'])
  })

  it('reads the time left', () => {
    expect(formatLeft(NOW + 43 * 60_000, NOW)).toBe('43m left')
    expect(formatLeft(NOW + 125 * 60_000, NOW)).toBe('2h 5m left')
    expect(formatLeft(NOW + 30_000, NOW)).toBe('under a minute left')
    expect(formatLeft(NaN, NOW)).toBe('until ended')
  })
})
