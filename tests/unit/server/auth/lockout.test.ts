import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createLockout,
  LOCKOUT_DURATION_MS,
  LOCKOUT_WINDOW_MS,
  type Lockout,
} from '../../../../src/server/auth/lockout.ts'
import { openDatabase, type Db } from '../../../../src/server/store/db.ts'
import { createLoginFailureRepo } from '../../../../src/server/store/login-failure-repo.ts'
import { makeTempDir } from '../temp-dir.ts'

let db: Db
let cleanup: () => void
let clock: number
let lockout: Lockout
beforeEach(() => {
  const tmp = makeTempDir()
  cleanup = tmp.cleanup
  db = openDatabase(tmp.dir)
  clock = 1_700_000_000_000
  lockout = createLockout(createLoginFailureRepo(db), () => clock)
})
afterEach(() => {
  db.close()
  cleanup()
})

const failTimes = (n: number, user = 'admin') => {
  let last = lockout.recordFailure(user)
  for (let i = 1; i < n; i++) last = lockout.recordFailure(user)
  return last
}

describe('login lockout', () => {
  it('counts down 4, 3, 2, 1 and locks on the fifth failure for 15 minutes', () => {
    expect([1, 2, 3, 4].map(() => lockout.recordFailure('admin'))).toEqual([
      { locked: false, remaining: 4 },
      { locked: false, remaining: 3 },
      { locked: false, remaining: 2 },
      { locked: false, remaining: 1 },
    ])
    expect(lockout.recordFailure('admin')).toEqual({ locked: true, remainingMinutes: 15 })
    expect(lockout.check('admin')).toEqual({ locked: true, remainingMinutes: 15 })
    clock += 10 * 60_000 + 1
    expect(lockout.check('admin')).toEqual({ locked: true, remainingMinutes: 5 })
    clock += LOCKOUT_DURATION_MS
    expect(lockout.check('admin')).toEqual({ locked: false })
    // After the lock a new series starts.
    expect(lockout.recordFailure('admin')).toEqual({ locked: false, remaining: 4 })
  })

  it('keeps accounts apart', () => {
    failTimes(5, 'admin')
    expect(lockout.check('admin')).toMatchObject({ locked: true })
    expect(lockout.check('other')).toEqual({ locked: false })
  })

  it('shows an admin the lock and lifts it on unlock', () => {
    failTimes(2)
    expect(lockout.inspect('admin')).toEqual({
      locked: false,
      failures: 2,
      lockedUntil: null,
      remainingMinutes: 0,
    })
    failTimes(3)
    expect(lockout.inspect('admin')).toEqual({
      locked: true,
      failures: 5,
      lockedUntil: clock + LOCKOUT_DURATION_MS,
      remainingMinutes: 15,
    })
    expect(lockout.unlock('admin')).toBe(true)
    expect(lockout.check('admin')).toEqual({ locked: false })
    expect(lockout.inspect('admin').failures).toBe(0)
    expect(lockout.unlock('admin')).toBe(false)
  })

  it('forgets failures older than the 15-minute window', () => {
    failTimes(4)
    clock += LOCKOUT_WINDOW_MS + 1
    expect(lockout.recordFailure('admin')).toEqual({ locked: false, remaining: 4 })
  })

  it('starts over after a reset (a successful login)', () => {
    failTimes(4)
    lockout.reset('admin')
    expect(lockout.recordFailure('admin')).toEqual({ locked: false, remaining: 4 })
  })

  it('survives a restart: the counters live in SQLite, keyed by a digest', () => {
    failTimes(5)
    const again = createLockout(createLoginFailureRepo(db), () => clock)
    expect(again.check('admin')).toMatchObject({ locked: true })
    const rows = db.prepare('SELECT * FROM login_failures').all() as Array<{ key_hash: string }>
    expect(rows).toHaveLength(1)
    expect(rows[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/)
  })
})
