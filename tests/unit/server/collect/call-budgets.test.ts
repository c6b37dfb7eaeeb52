import { describe, expect, it } from 'vitest'
import { createCallBudgets } from '../../../../src/server/collect/call-budgets.ts'

describe('createCallBudgets', () => {
  it('doubles the budget of a path that timed out, up to the ceiling, and no other', () => {
    const budgets = createCallBudgets(8_000, 64_000)
    expect(budgets.of('/a')).toBe(8_000)
    const seen = []
    for (let i = 0; i < 5; i++) {
      budgets.timedOut('/a')
      seen.push(budgets.of('/a'))
    }
    expect(seen).toEqual([16_000, 32_000, 64_000, 64_000, 64_000])
    expect(budgets.of('/b')).toBe(8_000)
  })

  it('keeps a grown budget while answers need it, and halves it back to the base when they do not', () => {
    const budgets = createCallBudgets(8_000, 64_000)
    budgets.timedOut('/a')
    budgets.timedOut('/a')
    budgets.answered('/a', 20_000)
    expect(budgets.of('/a')).toBe(32_000)
    budgets.answered('/a', 1_000)
    expect(budgets.of('/a')).toBe(16_000)
    budgets.answered('/a', 1_000)
    expect(budgets.of('/a')).toBe(8_000)
    // Never below the base, whatever the answers.
    budgets.answered('/a', 1)
    expect(budgets.of('/a')).toBe(8_000)
  })
})
