// Random cpu series through evaluate: the engine's invariants hold for any sequence of values,
// delays, flapping settings and config saves.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { evaluate } from '../../../../src/server/alerts/evaluate.ts'
import { createEngineState, type EngineState } from '../../../../src/server/alerts/engine-types.ts'
import { instantConfig, makeGuest, makeState, T0 } from './engine-fixture.ts'

const GUESTS = 3

describe('evaluate (property)', () => {
  it('never resolves above clear, never resolves what did not fire, and a config save changes nothing', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.integer({ min: 0, max: 100 }), { minLength: GUESTS, maxLength: GUESTS }),
          {
            minLength: 1,
            maxLength: 40,
          },
        ),
        fc.constantFrom(0, 10, 30),
        fc.boolean(),
        fc.integer({ min: 50, max: 95 }),
        (series, delay, flapping, trigger) => {
          const config = instantConfig({
            timeThresholds: { guest: delay, node: 0, storage: 0, pbs: 0 },
          })
          config.flapping = { ...config.flapping, enabled: flapping, threshold: 3 }
          config.guestDefaults.cpu = { trigger, clear: trigger - 5 }
          let engine: EngineState = createEngineState()
          const fired = new Set<string>()
          series.forEach((cpus, poll) => {
            const at = T0 + poll * 10_000
            const state = makeState(
              { vms: cpus.map((cpu, i) => makeGuest(i, { cpu: cpu / 100 })) },
              at,
            )
            const result = evaluate(state, config, at, engine)
            for (const t of result.transitions) {
              if (t.kind === 'fired') fired.add(t.alert.id)
              if (t.kind !== 'resolved') continue
              expect(fired.has(t.alert.id)).toBe(true)
              fired.delete(t.alert.id)
              const vmid = Number(t.alert.resourceId.split('-').pop())
              expect(cpus[vmid]!).toBeLessThanOrEqual(trigger - 5)
            }
            engine = result.next
            // A save with a structurally equal, new config object changes no alert.
            const again = evaluate(state, structuredClone(config), at + 500, engine)
            expect(again.transitions).toEqual([])
            expect(again.next.active).toBe(engine.active)
            expect(again.next.pending).toBe(engine.pending)
            engine = again.next
          })
          for (const id of engine.active.keys()) expect(fired.has(id)).toBe(true)
        },
      ),
      { numRuns: 200 },
    )
  })
})
