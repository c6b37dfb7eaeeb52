// Rate limit for the hub's per-connection warnings. A client that floods malformed frames
// (10,000 frames wrote 7,328 lines, issue 12) must not flood the log: the first few per window are
// logged in full, the rest only counted and reported in one summary line.

/** Malformed frames logged in full per connection and window. */
export const MALFORMED_LOG_BURST = 5
/** Length of a window; the summary of the suppressed ones follows when it ends. */
export const MALFORMED_LOG_WINDOW_MS = 60_000

interface WarnLog {
  warn(obj: object, msg: string): void
}

/** A per-connection limiter. */
export interface LogLimiter {
  /** Log (or count) one malformed frame. */
  malformed(reason: string): void
  /** Write the summary of the frames suppressed so far, if any (window end, close). */
  flush(): void
}

/** Create the limiter of one connection; `now` in ms. */
export function createLogLimiter(log: WarnLog, now: () => number): LogLimiter {
  let windowStart = now()
  let logged = 0
  let suppressed = 0
  const flush = () => {
    if (suppressed > 0) {
      log.warn(
        { suppressed, windowMs: MALFORMED_LOG_WINDOW_MS },
        `ignored ${suppressed} more malformed socket messages`,
      )
    }
    suppressed = 0
  }
  return {
    malformed(reason) {
      const at = now()
      if (at - windowStart >= MALFORMED_LOG_WINDOW_MS) {
        flush()
        windowStart = at
        logged = 0
      }
      if (logged < MALFORMED_LOG_BURST) {
        logged++
        log.warn({ err: reason }, 'ignoring malformed socket message')
      } else suppressed++
    },
    flush,
  }
}
