// Login lockout per (username, IP): 5 failures within 15 minutes lock that pair for 15 minutes; a
// success clears the counter. Shared by POST /api/login and Basic authentication.
import type { LoginFailureRepo } from '../store/login-failure-repo.ts'
import { sha256Hex } from './secrets.ts'

export const LOCKOUT_MAX_FAILURES = 5
export const LOCKOUT_WINDOW_MS = 15 * 60_000
export const LOCKOUT_DURATION_MS = 15 * 60_000

export type LockState = { locked: true; remainingMinutes: number } | { locked: false }

export type FailureOutcome =
  { locked: true; remainingMinutes: number } | { locked: false; remaining: number }

export interface Lockout {
  check(username: string, ip: string): LockState
  /** Count a failure; says whether the pair is now locked, else how many attempts are left. */
  recordFailure(username: string, ip: string): FailureOutcome
  reset(username: string, ip: string): void
}

/** Lockout over the login_failures table (survives restarts). */
export function createLockout(repo: LoginFailureRepo, now: () => number): Lockout {
  // The NUL separator keeps ('a', 'bc') and ('ab', 'c') apart.
  const keyOf = (username: string, ip: string) => sha256Hex(`${username}\u0000${ip}`)
  const minutesLeft = (until: number, at: number) => Math.max(1, Math.ceil((until - at) / 60_000))
  let lastPrune = 0

  return {
    check(username, ip) {
      const at = now()
      const failure = repo.get(keyOf(username, ip))
      if (failure?.lockedUntil != null && failure.lockedUntil > at) {
        return { locked: true, remainingMinutes: minutesLeft(failure.lockedUntil, at) }
      }
      return { locked: false }
    },
    recordFailure(username, ip) {
      const at = now()
      const key = keyOf(username, ip)
      const previous = repo.get(key)
      // A counter whose window or lock has run out starts again.
      const expired =
        !previous ||
        (previous.lockedUntil != null
          ? previous.lockedUntil <= at
          : previous.firstFailureAt <= at - LOCKOUT_WINDOW_MS)
      const count = expired ? 1 : previous.count + 1
      const firstFailureAt = expired ? at : previous.firstFailureAt
      const lockedUntil = count >= LOCKOUT_MAX_FAILURES ? at + LOCKOUT_DURATION_MS : null
      repo.put(key, { count, firstFailureAt, lockedUntil })
      if (at - lastPrune > LOCKOUT_WINDOW_MS) {
        lastPrune = at
        repo.prune(at - LOCKOUT_WINDOW_MS)
      }
      return lockedUntil !== null
        ? { locked: true, remainingMinutes: minutesLeft(lockedUntil, at) }
        : { locked: false, remaining: LOCKOUT_MAX_FAILURES - count }
    },
    reset(username, ip) {
      repo.remove(keyOf(username, ip))
    },
  }
}
