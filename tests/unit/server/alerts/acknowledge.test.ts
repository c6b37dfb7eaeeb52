import { describe, expect, it } from 'vitest'
import {
  acknowledge,
  clearAlerts,
  unacknowledge,
} from '../../../../src/server/alerts/acknowledge.ts'
import { Driver, makeGuest, makeState, T0 } from './engine-fixture.ts'

function withAlerts() {
  const d = new Driver()
  d.poll(makeState({ vms: [makeGuest(1, { cpu: 0.9 }), makeGuest(2, { cpu: 0.9 })] }))
  return d
}

describe('acknowledgement helpers', () => {
  it('acknowledges with time and user, reports unknown ids, and survives the next poll', () => {
    const d = withAlerts()
    const result = acknowledge(d.engine, ['lab-pve1-1-cpu', 'nope'], 'ops', T0 + 5)
    expect(result.results).toEqual([
      { alertId: 'lab-pve1-1-cpu', success: true },
      { alertId: 'nope', success: false, error: 'alert not found: nope' },
    ])
    expect(result.next.active.get('lab-pve1-1-cpu')).toMatchObject({
      acknowledged: true,
      ackUser: 'ops',
      ackTime: new Date(T0 + 5).toISOString(),
    })
    expect(
      acknowledge(d.engine, ['lab-pve1-2-cpu'], undefined, T0).next.active.get('lab-pve1-2-cpu')
        ?.ackUser,
    ).toBe('admin')
    d.engine = result.next
    d.poll(makeState({ vms: [makeGuest(1, { cpu: 0.92 }), makeGuest(2, { cpu: 0.9 })] }))
    expect(d.active('lab-pve1-1-cpu')).toMatchObject({
      acknowledged: true,
      ackUser: 'ops',
      value: 92,
    })
  })

  it('unacknowledges, clearing ackTime and ackUser', () => {
    const d = withAlerts()
    const acked = acknowledge(d.engine, ['lab-pve1-1-cpu'], 'ops', T0).next
    const alert = unacknowledge(acked, ['lab-pve1-1-cpu']).next.active.get('lab-pve1-1-cpu')!
    expect(alert.acknowledged).toBe(false)
    expect('ackUser' in alert || 'ackTime' in alert).toBe(false)
  })

  it('clears alerts as resolved with reason cleared, into recentlyResolved', () => {
    const d = withAlerts()
    const result = clearAlerts(d.engine, ['lab-pve1-2-cpu', 'gone'], T0 + 1)
    expect(
      result.transitions.map((t) => [t.kind, t.alert.id, t.kind === 'resolved' && t.reason]),
    ).toEqual([['resolved', 'lab-pve1-2-cpu', 'cleared']])
    expect(result.results[1]).toMatchObject({ alertId: 'gone', success: false })
    expect([...result.next.active.keys()]).toEqual(['lab-pve1-1-cpu'])
    expect(result.next.recentlyResolved[0]).toMatchObject({
      id: 'lab-pve1-2-cpu',
      endReason: 'cleared',
    })
    expect(clearAlerts(d.engine, ['gone'], T0).next).toBe(d.engine)
  })
})
