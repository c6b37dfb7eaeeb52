// Login lockout per account: 5 failures within 15 minutes lock the username for 15 minutes,
// whatever addresses they came from, so guessing spread over many addresses locks it too (the
// per-address rate limit slows a single guesser; this stops a distributed one). A success clears
// the counter; an admin may unlock early (Settings → Security, POST /api/security/unlock). Other
// ways in (sessions, API token, single sign-on, proxy) are not locked: the admin can still act.
// Shared by POST /api/login and Basic authentication.
import type { LoginFailureRepo } from '../store/login-failure-repo.ts'
import { sha256Hex } from './secrets.ts'

export const LOCKOUT_MAX_FAILURES = 5
export const LOCKOUT_WINDOW_MS = 15 * 60_000
export const LOCKOUT_DURATION_MS = 15 * 60_000

export type LockState = { locked: true; remainingMinutes: number } | { locked: false }

export type FailureOutcome =
  { locked: true; remainingMinutes: number } | { locked: false; remaining: number }

/** What an admin sees of one account's counter. */
export interface AccountLockInfo {
  locked: boolean
  /** Failures counted in the current window (or that led to the lock). */
  failures: number
  /** Epoch ms the lock ends, or null when not locked. */
  lockedUntil: number | null
  /** Whole minutes left (at least 1) while locked, else 0. */
  remainingMinutes: number
}

export interface Lockout {
  check(username: string): LockState
  /** Count a failure; says whether the account is now locked, else how many attempts are left. */
  recordFailure(username: string): FailureOutcome
  /** Clear the counter (a successful login). */
  reset(username: string): void
  /** The account's counter as an admin sees it. */
  inspect(username: string): AccountLockInfo
  /** Lift a lock and clear the counter; true when the account was locked. */
  unlock(username: string): boolean
}

/** Lockout over the login_failures table (survives restarts). */
export function createLockout(repo: LoginFailureRepo, now: () => number): Lockout {
  // Keyed by a digest: people type passwords into the username field, and those must not be
  // stored in clear.
  const keyOf = (username: string) => sha256Hex(`account\u0000${username}`)
  const minutesLeft = (until: number, at: number) => Math.max(1, Math.ceil((until - at) / 60_000))
  let lastPrune = 0

  const inspect = (username: string): AccountLockInfo => {
    const at = now()
    const failure = repo.get(keyOf(username))
    if (failure?.lockedUntil != null && failure.lockedUntil > at) {
      const remainingMinutes = minutesLeft(failure.lockedUntil, at)
      return {
        locked: true,
        failures: failure.count,
        lockedUntil: failure.lockedUntil,
        remainingMinutes,
      }
    }
    const live =
      failure && failure.lockedUntil == null && failure.firstFailureAt > at - LOCKOUT_WINDOW_MS
    return {
      locked: false,
      failures: live ? failure.count : 0,
      lockedUntil: null,
      remainingMinutes: 0,
    }
  }

  return {
    check(username) {
      const info = inspect(username)
      return info.locked
        ? { locked: true, remainingMinutes: info.remainingMinutes }
        : { locked: false }
    },
    recordFailure(username) {
      const at = now()
      const key = keyOf(username)
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
    reset(username) {
      repo.remove(keyOf(username))
    },
    inspect,
    unlock(username) {
      const wasLocked = inspect(username).locked
      repo.remove(keyOf(username))
      return wasLocked
    },
  }
}
