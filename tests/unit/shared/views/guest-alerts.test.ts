import { describe, expect, it } from 'vitest'
import type { Entity } from '../../../../src/shared/model/state.ts'
import { indexGuestAlerts } from '../../../../src/shared/views/guest-alerts.ts'

let next = 0
function alert(resourceId: unknown, level: string, acknowledged = false): Entity {
  return { id: `a${next++}`, resourceId, level, type: 'cpu', acknowledged }
}

describe('indexGuestAlerts', () => {
  it('is empty without alerts', () => {
    expect(indexGuestAlerts([]).size).toBe(0)
  })

  it('lets an unacknowledged critical beat a warning in either order', () => {
    const index = indexGuestAlerts([
      alert('g1', 'warning'),
      alert('g1', 'critical'),
      alert('g2', 'critical'),
      alert('g2', 'warning'),
    ])
    expect(index.get('g1')).toBe('critical')
    expect(index.get('g2')).toBe('critical')
  })

  it('marks a guest whose alerts are all acknowledged', () => {
    const index = indexGuestAlerts([alert('g1', 'critical', true), alert('g1', 'warning', true)])
    expect(index.get('g1')).toBe('acknowledged')
  })

  it('keeps a warning when acknowledged and unacknowledged alerts mix', () => {
    const index = indexGuestAlerts([
      alert('g1', 'critical', true),
      alert('g1', 'warning'),
      alert('g2', 'warning'),
      alert('g2', 'critical', true),
    ])
    expect(index.get('g1')).toBe('warning')
    expect(index.get('g2')).toBe('warning')
  })

  it('treats an unknown level as a warning', () => {
    expect(indexGuestAlerts([alert('g1', 'info')]).get('g1')).toBe('warning')
  })

  it('skips malformed entries without a resource id', () => {
    const index = indexGuestAlerts([
      alert(undefined, 'critical'),
      alert('', 'critical'),
      alert(42, 'critical'),
      { id: 'x' },
      alert('g1', 'warning'),
    ])
    expect([...index.entries()]).toEqual([['g1', 'warning']])
  })

  it('keeps guests apart', () => {
    const index = indexGuestAlerts([alert('g1', 'critical'), alert('g2', 'warning', true)])
    expect(index.get('g1')).toBe('critical')
    expect(index.get('g2')).toBe('acknowledged')
    expect(index.has('g3')).toBe(false)
  })
})
