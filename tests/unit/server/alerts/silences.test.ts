// Silences, pure (issue 28): a silence's state at a moment, one-off and weekly (across a DST
// switch), and which silence covers which alert.
import { describe, expect, it } from 'vitest'
import { createSilenceMatcher, silenceStatus } from '../../../../src/server/alerts/silences.ts'
import { createSilenceService } from '../../../../src/server/alerts/silence-service.ts'
import type { Alert } from '../../../../src/shared/model/alerts.ts'
import type { Silence, SilenceTarget } from '../../../../src/shared/model/silences.ts'
import type { Guest, State } from '../../../../src/shared/model/state.ts'
import { makeAlert } from '../notify/notify-fixture.ts'

const at = (iso: string) => Date.parse(iso)
const iso = (t: number) => new Date(t).toISOString()

function silence(over: Partial<Silence> & { target?: SilenceTarget } = {}): Silence {
  return {
    id: 's1',
    target: { kind: 'alert', alertId: 'x' },
    comment: '',
    author: 'ann',
    createdAt: '2024-03-01T00:00:00.000Z',
    startsAt: '2024-03-01T00:00:00.000Z',
    endsAt: '2024-03-01T01:00:00.000Z',
    ...over,
  }
}

const sundays = {
  monday: false,
  tuesday: false,
  wednesday: false,
  thursday: false,
  friday: false,
  saturday: false,
  sunday: true,
}

describe('silence state', () => {
  it('is upcoming, active until its end, then ended; ended early stays ended', () => {
    const s = silence({ startsAt: '2024-03-01T00:10:00.000Z' })
    expect(silenceStatus(s, at('2024-03-01T00:00:00Z'))).toEqual({
      state: 'upcoming',
      nextStart: at('2024-03-01T00:10:00Z'),
    })
    expect(silenceStatus(s, at('2024-03-01T00:30:00Z'))).toEqual({
      state: 'active',
      activeUntil: at('2024-03-01T01:00:00Z'),
    })
    expect(silenceStatus(s, at('2024-03-01T01:00:00Z')).state).toBe('ended')
    const early = { ...s, endedAt: '2024-03-01T00:20:00.000Z', endedBy: 'bob' }
    expect(silenceStatus(early, at('2024-03-01T00:30:00Z')).state).toBe('ended')
  })

  it('follows a weekly window in its zone across the spring-forward switch, until its end', () => {
    // Sundays 01:00-05:00 in Berlin, from 1 March, no end.
    const s = silence({
      endsAt: null,
      window: { days: sundays, start: '01:00', end: '05:00', timezone: 'Europe/Berlin' },
    })
    // Saturday 30 March: next window Sunday 01:00 CET (00:00 UTC).
    expect(silenceStatus(s, at('2024-03-30T12:00:00Z'))).toEqual({
      state: 'upcoming',
      nextStart: at('2024-03-31T00:00:00Z'),
    })
    // Inside: until 05:00 CEST (03:00 UTC), three real hours that night.
    expect(silenceStatus(s, at('2024-03-31T01:30:00Z'))).toEqual({
      state: 'active',
      activeUntil: at('2024-03-31T03:00:00Z'),
    })
    // The week after, in summer time: 01:00 CEST is 23:00 UTC on Saturday.
    expect(silenceStatus(s, at('2024-03-31T12:00:00Z'))).toEqual({
      state: 'upcoming',
      nextStart: at('2024-04-06T23:00:00Z'),
    })
    // With an end before the next window, it is over.
    const bounded = { ...s, endsAt: '2024-04-05T00:00:00.000Z' }
    expect(silenceStatus(bounded, at('2024-03-31T12:00:00Z')).state).toBe('ended')
    // An end inside a window cuts that window short.
    const cut = { ...s, endsAt: '2024-03-31T02:00:00.000Z' }
    expect(silenceStatus(cut, at('2024-03-31T01:30:00Z'))).toEqual({
      state: 'active',
      activeUntil: at('2024-03-31T02:00:00Z'),
    })
  })
})

describe('silence matching', () => {
  const now = at('2024-03-01T00:30:00Z')
  const guests = new Map<string, Guest>([
    ['lab-pve1-101', { id: 'lab-pve1-101', name: 'db-1', tags: ['DB', 'prod'] } as Guest],
    ['lab-pve2-201', { id: 'lab-pve2-201', name: 'web-1', tags: ['web'] } as Guest],
  ])
  const lookup = (id: string) => guests.get(id)
  const covering = (targets: SilenceTarget[], alert: Alert) =>
    createSilenceMatcher(
      targets.map((target, i) => silence({ id: `s${i}`, target })),
      now,
    ).covering(alert, lookup)?.silenceId

  const guestAlert = makeAlert(1, { resourceId: 'lab-pve1-101', node: 'pve1', instance: 'lab' })
  const webAlert = makeAlert(2, {
    id: 'web-cpu',
    resourceId: 'lab-pve2-201',
    node: 'pve2',
    instance: 'lab',
  })
  const pbsAlert = makeAlert(3, {
    id: 'pbs-offline',
    resourceId: 'pbs-backup1',
    instance: 'backup1',
    node: 'backup1.lan',
    metadata: { resourceType: 'PBS' },
  })

  it('covers a node and what runs on it, one guest, a PBS, an alert', () => {
    expect(covering([{ kind: 'node', instance: 'lab', node: 'pve1' }], guestAlert)).toBe('s0')
    expect(covering([{ kind: 'node', instance: 'lab', node: 'pve1' }], webAlert)).toBeUndefined()
    expect(
      covering([{ kind: 'node', instance: 'other', node: 'pve1' }], guestAlert),
    ).toBeUndefined()
    expect(covering([{ kind: 'guest', id: 'lab-pve2-201' }], webAlert)).toBe('s0')
    expect(covering([{ kind: 'pbs', instance: 'backup1' }], pbsAlert)).toBe('s0')
    expect(covering([{ kind: 'pbs', instance: 'backup1' }], guestAlert)).toBeUndefined()
    expect(covering([{ kind: 'alert', alertId: 'web-cpu' }], webAlert)).toBe('s0')
  })

  it('covers guests by tag (any case) and by a dashboard search', () => {
    expect(covering([{ kind: 'tag', tag: 'db' }], guestAlert)).toBe('s0')
    expect(covering([{ kind: 'tag', tag: 'db' }], webAlert)).toBeUndefined()
    expect(covering([{ kind: 'search', query: 'tags:web' }], webAlert)).toBe('s0')
    expect(covering([{ kind: 'search', query: 'web OR db' }], guestAlert)).toBe('s0')
    expect(covering([{ kind: 'search', query: 'name:db-1' }], webAlert)).toBeUndefined()
    // A resource that is no guest is never covered by a guest search.
    expect(covering([{ kind: 'search', query: 'backup1' }], pbsAlert)).toBeUndefined()
  })

  it('shows the longest lasting of several, and ignores the ones not active', () => {
    const silences = [
      silence({ id: 'short', target: { kind: 'tag', tag: 'db' } }),
      silence({
        id: 'long',
        target: { kind: 'node', instance: 'lab', node: 'pve1' },
        endsAt: '2024-03-01T04:00:00.000Z',
      }),
      silence({
        id: 'later',
        target: { kind: 'guest', id: 'lab-pve1-101' },
        startsAt: '2024-03-01T02:00:00.000Z',
        endsAt: '2024-03-09T00:00:00.000Z',
      }),
    ]
    const matcher = createSilenceMatcher(silences, now)
    expect(matcher.covering(guestAlert, lookup)).toEqual({
      silenceId: 'long',
      until: iso(at('2024-03-01T04:00:00Z')),
    })
    expect(matcher.activeKey).toBe(
      `long@${at('2024-03-01T04:00:00Z')},short@${at('2024-03-01T01:00:00Z')}`,
    )
    expect(createSilenceMatcher([], now).activeKey).toBe('')
  })
})

describe('marking the published alerts of new states (silence service)', () => {
  const memoryRepo = () => ({
    list: () => ({ silences: [], unreadable: [] }),
    insert: () => undefined,
    replace: () => true,
    remove: () => 0,
  })
  const vm = (vmid: number, tags: string[]): Guest =>
    ({
      id: `lab-pve1-${vmid}`,
      vmid,
      node: 'pve1',
      instance: 'lab',
      name: `vm-${vmid}`,
      tags,
    }) as Guest
  const stateOf = (vms: Guest[]) => ({ vms, containers: [] }) as unknown as State

  it('finds each alert’s guest again when the lists are reordered, grow or a guest changes its tags', () => {
    const now = at('2024-03-01T00:30:00Z')
    const alerts = [101, 102, 103].map((vmid) =>
      makeAlert(vmid - 100, { resourceId: `lab-pve1-${vmid}`, node: 'pve1', instance: 'lab' }),
    )
    const service = createSilenceService({
      repo: memoryRepo(),
      now: () => now,
      alerts: () => alerts,
      onChange: () => undefined,
      onUncovered: () => undefined,
      log: { warn: () => undefined, error: () => undefined },
    })
    service.create(silence({ target: { kind: 'tag', tag: 'db' }, endsAt: iso(now + 3_600_000) }))
    const marked = (state: State) =>
      service
        .mark(alerts, state)
        .filter((a) => a.silenced)
        .map((a) => a.resourceId)
    // Each poll brings new guest objects (the collector's), in the same order or not.
    expect(marked(stateOf([vm(101, ['db']), vm(102, []), vm(103, ['db'])]))).toEqual([
      'lab-pve1-101',
      'lab-pve1-103',
    ])
    expect(marked(stateOf([vm(101, ['db']), vm(102, []), vm(103, ['db'])]))).toEqual([
      'lab-pve1-101',
      'lab-pve1-103',
    ])
    expect(marked(stateOf([vm(99, []), vm(103, []), vm(102, ['db']), vm(101, ['db'])]))).toEqual([
      'lab-pve1-101',
      'lab-pve1-102',
    ])
    // A guest gone from the lists is covered by no tag silence.
    expect(marked(stateOf([vm(102, ['db'])]))).toEqual(['lab-pve1-102'])
  })
})
