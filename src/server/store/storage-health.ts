// Is the data file writable (issue 24 #9)? /api/health asks: a real committed write to the
// storage_probe row (at most every STORAGE_PROBE_EVERY_MS), the free space of the file system that
// holds the data file, and the last storage error a request ran into. SQLite errors that mean the
// file cannot be written become a 503 naming the file (storageError), never a bare 500.
import fs from 'node:fs'
import path from 'node:path'
import { AppError } from '../../shared/model/errors.ts'
import type { Db } from './db.ts'

/** A probe result is reused this long. */
export const STORAGE_PROBE_EVERY_MS = 10_000
/** Less free space than this on the data file's file system is reported as a full disk. */
export const LOW_DISK_BYTES = 16 * 1024 * 1024

/** What /api/health reports about storage. */
export interface StorageStatus {
  ok: boolean
  /** The SQLite data file. */
  path: string
  /** Free bytes on its file system, when known. */
  freeBytes: number | null
  /** What is wrong, naming the file; absent when ok. */
  problem?: string
}

export interface StorageHealth {
  status(): StorageStatus
  /** A request's error: when it is a storage failure, remember it and return the 503 to send. */
  toAppError(err: unknown): AppError | null
}

// SQLite result codes (better-sqlite3 puts the extended name in err.code) that mean the file
// cannot be written or read, with the words an administrator needs.
const REASONS: ReadonlyArray<[RegExp, string]> = [
  [/^SQLITE_READONLY/, 'it is read-only'],
  [/^SQLITE_FULL$/, 'the disk is full'],
  [/^SQLITE_IOERR/, 'the disk reported an I/O error'],
  [/^SQLITE_CANTOPEN/, 'it cannot be opened'],
  [/^SQLITE_(CORRUPT|NOTADB)/, 'it is damaged'],
]

/** Why `err` is a storage failure, or null when it is something else. */
export function storageReason(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return null
  const match = REASONS.find(([pattern]) => pattern.test(code))
  return match ? `${match[1]} (${code})` : null
}

/** Watch the database `db` (its file is db.name). */
export function createStorageHealth(db: Db, now: () => number): StorageHealth {
  const file = path.resolve(db.name)
  const write = db.prepare(`INSERT INTO storage_probe (id, at) VALUES (1, ?)
    ON CONFLICT (id) DO UPDATE SET at = excluded.at`)
  let probed: { at: number; problem: string | null } | null = null
  let lastError: { at: number; problem: string } | null = null

  const probe = (): string | null => {
    const at = now()
    if (probed && at - probed.at < STORAGE_PROBE_EVERY_MS) return probed.problem
    let problem: string | null = null
    try {
      write.run(at)
    } catch (err) {
      const reason = storageReason(err) ?? String((err as Error).message ?? err)
      problem = `The database ${file} cannot be written: ${reason}.`
    }
    probed = { at, problem }
    // A write that works again clears what a request ran into before it.
    if (!problem && lastError && lastError.at <= at) lastError = null
    return problem
  }

  const freeBytes = (): number | null => {
    try {
      const stats = fs.statfsSync(path.dirname(file))
      return Number(stats.bavail) * Number(stats.bsize)
    } catch {
      return null
    }
  }

  return {
    status() {
      const free = freeBytes()
      const problem =
        probe() ??
        (free !== null && free < LOW_DISK_BYTES
          ? `The disk holding ${file} is full: ${free} bytes free.`
          : null) ??
        lastError?.problem ??
        null
      return { ok: problem === null, path: file, freeBytes: free, ...(problem ? { problem } : {}) }
    },
    toAppError(err) {
      const reason = storageReason(err)
      if (!reason) return null
      const error = new AppError('STORAGE_UNAVAILABLE', { path: file, reason }, { cause: err })
      lastError = { at: now(), problem: error.message }
      return error
    },
  }
}
