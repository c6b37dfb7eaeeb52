// Random fire/resolve sequences of one alert under random schedules: a recovery is planned only
// for an occurrence whose fire was planned to the same destination, and then always (nothing that
// limits repeats ever swallows it).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { PlannedDelivery } from '../../../../src/server/notify/types.ts'
import { WEEKDAYS } from '../../../../src/shared/model/alerts.ts'
import { fired, makeAlert, makeSchedule, MIN, PlanMemory, resolved } from './policy-fixture.ts'

const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`)

const scheduleArb = fc.record({
  cooldown: fc.constantFrom(0, 5, 30, 120),
  maxAlertsHour: fc.integer({ min: 1, max: 10 }),
  grouping: fc.boolean(),
  byNode: fc.boolean(),
  byGuest: fc.boolean(),
  window: fc.integer({ min: 60, max: 1800 }),
  quiet: fc.boolean(),
  start: hhmm,
  end: hhmm,
  timezone: fc.constantFrom('UTC', 'Europe/Berlin', 'Pacific/Auckland', 'America/New_York'),
  days: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
  suppress: fc.record({ performance: fc.boolean(), storage: fc.boolean(), offline: fc.boolean() }),
})

const stepArb = fc.record({
  kind: fc.constantFrom('fired' as const, 'resolved' as const),
  gapMinutes: fc.integer({ min: 0, max: 240 }),
  critical: fc.boolean(),
})

describe('planEvent (property)', () => {
  it('plans a recovery as pending exactly when its fire was planned as pending', () => {
    fc.assert(
      fc.property(scheduleArb, fc.array(stepArb, { minLength: 1, maxLength: 30 }), (p, steps) => {
        const schedule = makeSchedule((s) => {
          s.cooldown = p.cooldown
          s.maxAlertsHour = p.maxAlertsHour
          s.grouping = {
            enabled: p.grouping,
            window: p.window,
            byNode: p.byNode,
            byGuest: p.byGuest,
          }
          s.groupingWindow = p.window
          s.quietHours = {
            enabled: p.quiet,
            start: p.start,
            end: p.end,
            timezone: p.timezone,
            days: Object.fromEntries(
              WEEKDAYS.map((d, i) => [d, p.days[i]!]),
            ) as typeof s.quietHours.days,
            suppress: p.suppress,
          }
        })
        const memory = new PlanMemory()
        // March, around Berlin's DST switch, so the zones' odd days are in reach.
        let now = Date.UTC(2024, 2, 30, 20, 0)
        let alert = makeAlert({ type: 'powered-off', startTime: new Date(now).toISOString() })
        const firePending = new Set<string>()
        for (const step of steps) {
          now += step.gapMinutes * MIN
          if (step.kind === 'fired') {
            alert = makeAlert({
              type: 'powered-off',
              level: step.critical ? 'critical' : 'warning',
              startTime: new Date(now).toISOString(),
            })
            for (const row of memory.plan(fired(alert, now), schedule, now)) {
              if (row.status === 'pending')
                firePending.add(`${alert.startTime}|${row.destination.id}`)
            }
          } else {
            const rows: PlannedDelivery[] = memory.plan(resolved(alert, now), schedule, now)
            const pending = rows.filter((r) => r.status === 'pending').map((r) => r.destination.id)
            const expected = ['email', 'wh-1'].filter((d) =>
              firePending.has(`${alert.startTime}|${d}`),
            )
            expect(pending).toEqual(expected)
            expect(rows.every((r) => r.status === 'pending')).toBe(true)
          }
        }
      }),
      { numRuns: 300 },
    )
  })
})
