import { describe, expect, it } from 'vitest'
import type { NotificationEvent } from '../../../../src/shared/model/notifications.ts'
import { decodeClaim, encodeClaim, type DueRow } from '../../../../src/server/store/outbox-claim.ts'

const event = (id: string, message: string): NotificationEvent =>
  ({
    kind: 'fired',
    at: 1,
    alert: { id, type: 'cpu', level: 'warning', message, node: 'pve1', instance: 'lab' },
  }) as unknown as NotificationEvent

function row(id: number, destination: string, dueAt: number, payload: NotificationEvent): DueRow {
  return {
    id,
    idempotency_key: `key-${id}`,
    destination_kind: destination === 'email' ? 'email' : 'webhook',
    destination_id: destination,
    destination_name: destination.toUpperCase(),
    group_key: 'node:lab/pve1',
    due_at: dueAt,
    event: JSON.stringify(payload),
    attempts: id % 3,
    reason: id === 4 ? 'quiet-hours' : null,
  }
}

describe('the claim as text', () => {
  it('gives back the batches and rows as read, each event once for all its destinations', () => {
    // Quotes, a backslash, a line break and non-ASCII in the stored JSON cross unchanged.
    const a = event('lab-pve1-101-cpu', 'VM "web" at 97 % \\ über\nline')
    const b = event('lab-pve1-102-cpu', 'VM db at 91 %')
    const rows = [
      row(1, 'email', 100, a),
      row(2, 'hook', 100, a),
      row(3, 'email', 100, b),
      row(4, 'hook', 200, b),
    ]
    const text = encodeClaim(rows)
    // Each distinct event is in the text once.
    expect(text.split('lab-pve1-101-cpu').length - 1).toBe(1)
    const batches = decodeClaim(text)
    expect(batches.map((x) => [x.destination, x.dueAt, x.rows.map((r) => r.id)])).toEqual([
      [{ kind: 'email', id: 'email', name: 'EMAIL' }, 100, [1, 3]],
      [{ kind: 'webhook', id: 'hook', name: 'HOOK' }, 100, [2]],
      [{ kind: 'webhook', id: 'hook', name: 'HOOK' }, 200, [4]],
    ])
    const [email, hook, later] = batches
    expect(email!.rows[0]).toEqual({ id: 1, idempotencyKey: 'key-1', event: a, attempts: 1 })
    expect(later!.rows[0]).toEqual({
      id: 4,
      idempotencyKey: 'key-4',
      event: b,
      attempts: 1,
      reason: 'quiet-hours',
    })
    expect('reason' in email!.rows[0]!).toBe(false)
    // One object per event, shared by the rows of its destinations.
    expect(hook!.rows[0]!.event).toBe(email!.rows[0]!.event)
    // The batch key depends on destination, group and due time only.
    expect(email!.batchKey).toMatch(/^[0-9a-f]{32}$/)
    expect(decodeClaim(encodeClaim([row(9, 'email', 100, b)]))[0]!.batchKey).toBe(email!.batchKey)
    expect(later!.batchKey).not.toBe(hook!.batchKey)
  })

  it('is an empty list when nothing is due', () => {
    expect(decodeClaim(encodeClaim([]))).toEqual([])
  })

  it('refuses a text that is not a claim, or a row whose event is missing', () => {
    expect(() => decodeClaim('{"batches":[]}')).toThrow(/without events or batches/)
    expect(() => decodeClaim('not json')).toThrow(SyntaxError)
    const broken =
      '{"events":[],"batches":[{"destination":{"kind":"email","id":"e","name":"E"},' +
      '"groupKey":"g","dueAt":1,"batchKey":"k","rows":[[1,"key",0,0]]}]}'
    expect(() => decodeClaim(broken)).toThrow(/without its event/)
  })
})
