// A request's deadline that does not count the time our own event loop could not run. A timer
// that fires late fired after a block of this process (a large parse, a garbage collection, the
// machine's other work): the answer may well be sitting unread in the socket. The timers phase of
// the loop runs before the poll phase that would read it, so a plain setTimeout would time out
// an answer that came in time and we would report a healthy node as slow. Here a late timer
// gives the loop back for as long as it was late (bounded by the deadline itself, so a deadline
// never stretches beyond twice its length) before it expires.

/** Lateness ignored: ordinary timer jitter and short slices of work. */
const LATE_MS = 50

/** Calls `onExpire` once `ms` of time the loop was free to read answers have passed. */
export function fairTimeout(onExpire: () => void, ms: number): { clear(): void } {
  let extension = ms
  let due = performance.now() + ms
  let timer: NodeJS.Timeout
  const fire = () => {
    const late = performance.now() - due
    if (late > LATE_MS && extension > 0) {
      const wait = Math.min(late, extension)
      extension -= wait
      due = performance.now() + wait
      timer = setTimeout(fire, wait)
      return
    }
    onExpire()
  }
  timer = setTimeout(fire, ms)
  return { clear: () => clearTimeout(timer) }
}
