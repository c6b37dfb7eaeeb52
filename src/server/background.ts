// Background jobs (timer callbacks, fire-and-forget promises) must never end the process: a job
// that throws or rejects is logged and its next run goes ahead as scheduled. Node's default ends
// the process on an unhandled rejection, so every job started without an awaiting caller goes
// through runInBackground. There is deliberately no process-wide 'uncaughtException' handler: an
// exception nobody expected leaves unknown state behind, and a crash that a supervisor restarts
// is safer than a server that runs on half-broken.

/** A logger; `error` is used when it has one. */
export interface JobLog {
  warn(obj: object, msg: string): void
  error?(obj: object, msg: string): void
}

/**
 * Run `job` now without awaiting it. A synchronous throw or a rejection is logged as
 * "<what> failed"; the returned promise always resolves, so callers may keep or ignore it.
 */
export function runInBackground(
  log: JobLog | undefined,
  what: string,
  job: () => unknown,
): Promise<void> {
  return Promise.resolve()
    .then(job)
    .then(
      () => undefined,
      (err: unknown) => {
        try {
          if (log?.error) log.error({ err }, `${what} failed`)
          else if (log) log.warn({ err }, `${what} failed`)
          else console.error(`${what} failed`, err)
        } catch {
          // A failing logger must not turn a handled job error into an unhandled one.
        }
      },
    )
}
