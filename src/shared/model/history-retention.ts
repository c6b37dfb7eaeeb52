// How long the server keeps its own recent history points (issue 25): the System settings field
// `historyRetentionMinutes` and the environment variable HISTORY_RETENTION_MINUTES.

/** Minutes kept when nothing is set. */
export const HISTORY_RETENTION_DEFAULT = 60
export const HISTORY_RETENTION_MIN = 10
export const HISTORY_RETENTION_MAX = 360

/**
 * Bytes the recent store holds per guest per hour of retention (recent-store.ts): 7 metrics,
 * average and peak per minute, percents in 2 bytes and rates in 4.
 */
export const HISTORY_BYTES_PER_GUEST_HOUR = 2_640

/** The problem with a retention value, or '' when it is a whole number of minutes in bounds. */
export function retentionProblem(value: unknown): string {
  return typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= HISTORY_RETENTION_MIN &&
    value <= HISTORY_RETENTION_MAX
    ? ''
    : `must be a whole number of minutes from ${HISTORY_RETENTION_MIN} to ${HISTORY_RETENTION_MAX}`
}

/** The value when valid; throws a RangeError naming the bounds otherwise. */
export function checkRetentionMinutes(value: number): number {
  const problem = retentionProblem(value)
  if (problem) throw new RangeError(`historyRetentionMinutes ${problem}`)
  return value
}
