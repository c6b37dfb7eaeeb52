import { describe, expect, it } from 'vitest'
import { escalationsDue, notifyFor } from '../../../../src/server/notify/escalation.ts'
import { makeAlert, makeSchedule, MIN, T0 } from './policy-fixture.ts'

const enabled = makeSchedule((s) => {
  s.escalation.enabled = true // levels 15 email, 30 webhook, 60 all
})

/** Runs the check at each time, remembering what it returned as the outbox would. */
function run(times: number[], alerts = [makeAlert()], schedule = enabled) {
  const sent = new Set<string>()
  return times.map((now) => {
    const events = escalationsDue(alerts, schedule, now, (id, start, level) =>
      sent.has(`${id}|${start}|${level}`),
    )
    for (const e of events) sent.add(`${e.alert.id}|${e.alert.startTime}|${e.level}`)
    return events.map((e) => [e.alert.id, e.level, e.at])
  })
}

describe('escalation levels', () => {
  it('reaches each level once, when the alert is old enough', () => {
    const id = 'lab-pve1-101-cpu'
    expect(
      run([
        T0 + 14 * MIN,
        T0 + 15 * MIN,
        T0 + 16 * MIN,
        T0 + 30 * MIN,
        T0 + 59 * MIN,
        T0 + 60 * MIN,
        T0 + 600 * MIN,
      ]),
    ).toEqual([
      [],
      [[id, 1, T0 + 15 * MIN]],
      [],
      [[id, 2, T0 + 30 * MIN]],
      [],
      [[id, 3, T0 + 60 * MIN]],
      [],
    ])
  })

  it('gives every missed level at once after a pause (a restart), each dated when it became due', () => {
    expect(run([T0 + 45 * MIN])).toEqual([
      [
        ['lab-pve1-101-cpu', 1, T0 + 15 * MIN],
        ['lab-pve1-101-cpu', 2, T0 + 30 * MIN],
      ],
    ])
  })

  it('does not escalate acknowledged alerts, nor anything when escalation is off', () => {
    const acked = makeAlert({ acknowledged: true, ackTime: new Date(T0 + MIN).toISOString() })
    expect(run([T0 + 90 * MIN], [acked])).toEqual([[]])
    expect(run([T0 + 90 * MIN], [makeAlert()], makeSchedule())).toEqual([[]])
  })

  it('counts each occurrence apart: a new start time escalates again', () => {
    const sent = new Set<string>()
    const check = (alert: ReturnType<typeof makeAlert>, now: number) => {
      const events = escalationsDue([alert], enabled, now, (id, start, level) =>
        sent.has(`${id}|${start}|${level}`),
      )
      for (const e of events) sent.add(`${e.alert.id}|${e.alert.startTime}|${e.level}`)
      return events.map((e) => e.level)
    }
    expect(check(makeAlert(), T0 + 20 * MIN)).toEqual([1])
    const again = makeAlert({ startTime: new Date(T0 + 60 * MIN).toISOString() })
    expect(check(again, T0 + 80 * MIN)).toEqual([1])
  })

  it('tells which destinations a level notifies', () => {
    expect([1, 2, 3, 4].map((level) => notifyFor(level, enabled))).toEqual([
      'email',
      'webhook',
      'all',
      'all',
    ])
  })
})
