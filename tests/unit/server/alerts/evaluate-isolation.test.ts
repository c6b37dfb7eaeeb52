// Random estates through evaluate: a guest's alerts, pending conditions and transitions are the
// same whether it is evaluated among others or alone. The guest loop reuses one scratch place and
// observation for every guest and metric (evaluate-guests.ts); nothing of one guest may leak into
// another's alerts, and every alert still reads its own guest's value.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AlertMetric } from '../../../../src/shared/model/alerts.ts'
import type { Guest } from '../../../../src/shared/model/state.ts'
import { metricMessage } from '../../../../src/server/alerts/alert-ids.ts'
import { evaluate } from '../../../../src/server/alerts/evaluate.ts'
import { createEngineState, type EngineState } from '../../../../src/server/alerts/engine-types.ts'
import { instantConfig, makeGuest, makeState, MB, T0 } from './engine-fixture.ts'

const GUESTS = 4

const reading = fc.record({
  running: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
  cpu: fc.integer({ min: 0, max: 100 }),
  memory: fc.integer({ min: 0, max: 100 }),
  disk: fc.integer({ min: 0, max: 100 }),
  root: fc.integer({ min: 0, max: 100 }),
  netIn: fc.integer({ min: 0, max: 40 }),
})

type Reading = typeof reading extends fc.Arbitrary<infer R> ? R : never

function guestOf(i: number, r: Reading): Guest {
  return makeGuest(100 + i, {
    name: `g${i}`,
    type: i % 2 === 0 ? 'qemu' : 'lxc',
    status: r.running ? 'running' : 'stopped',
    cpu: r.cpu / 100,
    memory: { usage: r.memory, used: r.memory, total: 100 },
    disk: { usage: r.disk, used: r.disk, total: 100 },
    disks: [{ mountpoint: '/', device: '/dev/sda1', type: 'ext4', used: r.root, total: 100 }],
    networkIn: r.netIn * MB,
  })
}

const sorted = <V>(map: ReadonlyMap<string, V>) =>
  [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

describe('evaluate (guests alone or together)', () => {
  it('gives each guest the alerts, pending conditions and transitions it gets alone', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(reading, { minLength: GUESTS, maxLength: GUESTS }), {
          minLength: 1,
          maxLength: 25,
        }),
        fc.constantFrom(0, 10, 20),
        fc.boolean(),
        fc.integer({ min: 10, max: 30 }),
        (polls, delay, flapping, netTrigger) => {
          const config = instantConfig({
            timeThresholds: { guest: delay, node: 0, storage: 0, pbs: 0 },
          })
          config.flapping = { ...config.flapping, enabled: flapping, threshold: 2 }
          config.guestDefaults.networkIn = { trigger: netTrigger, clear: netTrigger - 5 }
          let together: EngineState = createEngineState()
          const alone: EngineState[] = Array.from({ length: GUESTS }, () => createEngineState())
          polls.forEach((readings, poll) => {
            const at = T0 + poll * 10_000
            const guests = readings.map((r, i) => guestOf(i, r))
            const all = evaluate(makeState({ vms: guests }, at), config, at, together)
            together = all.next
            const transitions = []
            const active = new Map()
            const pending = new Map()
            for (let i = 0; i < GUESTS; i++) {
              const one = evaluate(makeState({ vms: [guests[i]!] }, at), config, at, alone[i]!)
              alone[i] = one.next
              transitions.push(...one.transitions)
              for (const [id, a] of one.next.active) active.set(id, a)
              for (const [id, p] of one.next.pending) pending.set(id, p)
            }
            expect(all.transitions).toEqual(transitions)
            expect(sorted(together.active)).toEqual(sorted(active))
            expect(sorted(together.pending)).toEqual(sorted(pending))
            // Every metric alert carries its own guest's reading and the message built from it.
            for (const alert of together.active.values()) {
              if (alert.type === 'powered-off') continue
              const i = Number(alert.resourceId.split('-').pop()) - 100
              const r = readings[i]!
              const values: Record<string, number> = {
                cpu: r.cpu,
                memory: r.memory,
                disk: alert.metadata?.mountpoint ? r.root : r.disk,
                networkIn: r.netIn,
              }
              if (alert.stale || !r.running) continue
              expect(alert.value).toBeCloseTo(values[alert.type]!, 9)
              expect(alert.resourceName).toBe(`g${i}`)
              const kind = i % 2 === 0 ? 'VM' : 'Container'
              expect(alert.message).toBe(
                metricMessage(
                  kind,
                  alert.type as AlertMetric,
                  alert.value,
                  alert.metadata?.mountpoint,
                ),
              )
            }
          })
        },
      ),
      { numRuns: 150 },
    )
  })
})
