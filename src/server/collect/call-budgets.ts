// Per-path budgets of the slower collectors' calls (issue 27). A fixed budget fails a listing that
// is merely large for ever: at 100,000 guests a PBS storage's content list through PVE is 35 MB
// and took longer than 8 s under load at every try for more than 24 minutes, so the instance's
// backups stayed pending all that time. Here a path that timed out gets twice its budget at its
// next try, up to a ceiling; a path that answers well within its budget comes back down by half,
// to the base. Only grown budgets are remembered, so the map holds the few slow paths, not every
// path of the estate.

/** The budgets of one endpoint's slower calls. */
export interface CallBudgets {
  /** The budget of the next call of `path`, ms. */
  of(path: string): number
  /** `path` ran out of its budget: the next call gets more. */
  timedOut(path: string): void
  /** `path` answered after `ms`: a budget far above that shrinks back towards the base. */
  answered(path: string, ms: number): void
}

/** Budgets from `baseMs` up to `maxMs`, per path. */
export function createCallBudgets(baseMs: number, maxMs: number): CallBudgets {
  const grown = new Map<string, number>()
  const of = (path: string): number => grown.get(path) ?? baseMs
  return {
    of,
    timedOut(path) {
      grown.set(path, Math.min(maxMs, of(path) * 2))
    },
    answered(path, ms) {
      const budget = grown.get(path)
      // A quarter: an answer that needed most of a halved budget would time out again.
      if (budget === undefined || ms >= budget / 4) return
      const next = Math.max(baseMs, budget / 2)
      if (next === baseMs) grown.delete(path)
      else grown.set(path, next)
    },
  }
}
