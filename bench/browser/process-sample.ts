// The server process of a bench, found by its port, and its RSS from /proc (Linux); a sampled
// curve summarised as first / last / max and its slope, to tell a flat curve from a growing one.
import fs from 'node:fs'
import { round } from './live-metrics.ts'

/** The pid of the `src/server/main.ts` process started with PORT=`port`, or null. */
export function serverPid(port: number): number | null {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8')
      if (!cmdline.includes('src/server/main.ts')) continue
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0')
      if (environ.includes(`PORT=${port}`)) return Number(entry)
    } catch {
      // The process ended or is not ours to read.
    }
  }
  return null
}

/** Resident set size in MiB, or null once the process is gone. */
export function rssMiB(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1]
    return kb === undefined ? null : round(Number(kb) / 1024)
  } catch {
    return null
  }
}

/**
 * A curve of [seconds, value] points: the first and last values, the maximum, and the slope of a
 * least-squares line through the points after the first tenth of the run (per hour), which is
 * what "flat" is judged by (the first minutes are the estate arriving).
 */
export function summariseCurve(points: ReadonlyArray<readonly [number, number | null]>) {
  const known = points.flatMap(([t, v]) => (v === null ? [] : [[t, v] as const]))
  if (known.length === 0) return { first: null, last: null, max: null, slopePerHour: null }
  const span = known[known.length - 1]![0] - known[0]![0]
  const tail = known.filter(([t]) => t >= known[0]![0] + span / 10)
  let slope: number | null = null
  if (tail.length >= 2) {
    const n = tail.length
    const mt = tail.reduce((s, [t]) => s + t, 0) / n
    const mv = tail.reduce((s, [, v]) => s + v, 0) / n
    const cov = tail.reduce((s, [t, v]) => s + (t - mt) * (v - mv), 0)
    const varT = tail.reduce((s, [t]) => s + (t - mt) ** 2, 0)
    slope = varT === 0 ? null : round((cov / varT) * 3600)
  }
  return {
    first: known[0]![1],
    last: known[known.length - 1]![1],
    max: Math.max(...known.map(([, v]) => v)),
    slopePerHour: slope,
  }
}
