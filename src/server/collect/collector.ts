// The collector contract (STYLE.md "A collector") and the scheduler's side of it. A collector
// names itself, declares how often it runs and reads through the context it is given; the
// scheduler here owns the cadence (from the injected clock), the per-call budget, the in-flight
// limit and the failure reports (AppErrors, warned once per node until they recover).
// Collectors never touch SQLite or sockets.
import type { ListMapper } from './json-slices.ts'
import { AppError } from '../../shared/model/errors.ts'
import { isDue } from './cadence.ts'
import type { CallBudgets } from './call-budgets.ts'
import type { Limiter } from './limiter.ts'

/** One collector: `collect` reads through `ctx` and maps with pure mappers. */
export interface Collector<Ctx, T> {
  readonly name: string
  readonly intervalMs: number
  collect(ctx: Ctx): Promise<T>
}

/** What the scheduler needs from a context: the cycle's time and the poll interval. */
export interface ScheduleClock {
  /** Epoch ms of this cycle, from the poller's injected clock. */
  now: number
  pollIntervalMs: number
  onCache?(hit: boolean): void
}

/** Last attempt (epoch ms) per collector name; absent means never. */
export type Schedule = Map<string, number>

/**
 * Runs `collector` if its interval has elapsed since its last attempt, recording this attempt;
 * otherwise counts a cache hit and returns undefined. `onError` gets what the collector threw.
 */
export async function runIfDue<Ctx extends ScheduleClock, T>(
  schedule: Schedule,
  collector: Collector<Ctx, T>,
  ctx: Ctx,
  onError: (err: unknown) => void,
): Promise<T | undefined> {
  const last = schedule.get(collector.name) ?? -Infinity
  const due = isDue(last, collector.intervalMs, ctx.now, ctx.pollIntervalMs)
  ctx.onCache?.(!due)
  if (!due) return undefined
  schedule.set(collector.name, ctx.now)
  try {
    return await collector.collect(ctx)
  } catch (err) {
    onError(err)
    return undefined
  }
}

/** A GET with query parameters, as the clients offer it. */
export type QueryCall = (
  path: string,
  query?: Record<string, string | number>,
  signal?: AbortSignal,
  /** Overrides the client's timeout for this call (counted from the request being sent). */
  timeoutMs?: number,
  /** Maps each element of a list answer while it is parsed (PveClient.get). */
  each?: ListMapper,
) => Promise<unknown>

/**
 * Wraps `call` in the limiter and a budget: resolves with the call, or rejects with PVE_TIMEOUT
 * once the budget is spent, even if `call` ignores the signal; the limiter slot is free again
 * either way (the request itself is aborted). The budget is per path (call-budgets.ts): a path that
 * ran out gets more at its next call, and the client's own timeout is raised to match.
 */
export function budgeted(
  call: QueryCall,
  limiter: Limiter,
  budgets: CallBudgets,
  host: string,
  cancel?: AbortSignal,
): (path: string, query?: Record<string, string | number>, each?: ListMapper) => Promise<unknown> {
  return (path, query, each) =>
    limiter.run(async () => {
      // Cancelled (the endpoint is removed or the server stops): calls still queued never start.
      if (cancel?.aborted) throw cancelReason(cancel)
      const budgetMs = budgets.of(path)
      const controller = new AbortController()
      let timer: ReturnType<typeof setTimeout> | undefined
      let onCancel: (() => void) | undefined
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const err = new AppError('PVE_TIMEOUT', { host, ms: budgetMs })
          controller.abort(err)
          reject(err)
        }, budgetMs)
        onCancel = () => {
          controller.abort(cancelReason(cancel!))
          reject(cancelReason(cancel!))
        }
        cancel?.addEventListener('abort', onCancel, { once: true })
      })
      const started = performance.now()
      try {
        const sent = call(path, query, controller.signal, budgetMs, each)
        const result = await Promise.race([sent, expired])
        budgets.answered(path, performance.now() - started)
        return result
      } catch (err) {
        if (err instanceof AppError && err.code === 'PVE_TIMEOUT') budgets.timedOut(path)
        throw err
      } finally {
        clearTimeout(timer)
        if (onCancel) cancel?.removeEventListener('abort', onCancel)
      }
    })
}

/** Why the calls of a cancelled run fail: not the endpoint's fault, so never reported. */
export class CollectCancelled extends Error {
  constructor() {
    super('collection cancelled')
    this.name = 'CollectCancelled'
  }
}

function cancelReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new CollectCancelled()
}

/** Warn-once failure reports keyed `<part>:<node or item>`. */
export interface FailureLog {
  failed(key: string, err: unknown, fields: object): void
  succeeded(key: string): void
}

/**
 * Creates a failure log over `warned` (kept in the endpoint's memory): a part that keeps failing
 * is reported once, with its AppError code only (never a body or a secret), until it recovers.
 */
export function createFailureLog(
  warned: Set<string>,
  instance: string,
  warn: (obj: object, msg: string) => void,
): FailureLog {
  return {
    failed(key, err, fields) {
      if (err instanceof CollectCancelled || warned.has(key)) return
      warned.add(key)
      const code = err instanceof AppError ? err.code : 'INTERNAL'
      warn({ instance, ...fields, code }, `${key.split(':')[0]} refresh failed`)
    },
    succeeded(key) {
      warned.delete(key)
    },
  }
}
