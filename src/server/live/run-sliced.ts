// Drives a stepped computation (a generator that yields between slices) without holding the event
// loop: after each slice that used up the budget it waits for the next turn of the loop, so HTTP
// requests and socket frames get their turn during a long diff.
import { setImmediate as nextTurn } from 'node:timers/promises'
import { performance } from 'node:perf_hooks'

/** Longest run between two turns of the loop, in ms. */
export const SLICE_BUDGET_MS = 8

/** Run `steps` to the end, yielding to the event loop whenever a slice ran over the budget. */
export async function runSliced<T>(
  steps: Generator<void, T, void>,
  budgetMs = SLICE_BUDGET_MS,
): Promise<T> {
  let started = performance.now()
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (performance.now() - started < budgetMs) continue
    await nextTurn()
    started = performance.now()
  }
}
