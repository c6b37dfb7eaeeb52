// Watching the real server process from outside (Linux /proc): its resident memory, that of any
// processes it started (a simulator moved off its event loop), and how long /api/health takes.
import fs from 'node:fs'

const readText = (file: string): string | null => {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

const parentOf = (pid: number): number | null => {
  const stat = readText(`/proc/${pid}/stat`)
  // The command name is in parentheses and may hold spaces: fields start after the last ')'.
  const rest = stat?.slice(stat.lastIndexOf(')') + 2).split(' ')
  return rest?.[1] === undefined ? null : Number(rest[1])
}

const allPids = (): number[] =>
  fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)

/** The pid of the server this process started (tests/e2e/server-process.ts spawns main.ts). */
export function findServerPid(): number | null {
  for (const pid of allPids()) {
    if (parentOf(pid) !== process.pid) continue
    if (readText(`/proc/${pid}/cmdline`)?.includes('src/server/main.ts')) return pid
  }
  return null
}

/** Resident set size of one process in bytes (0 once it has gone). */
export function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readText(`/proc/${pid}/status`) ?? '')?.[1]
  return kb === undefined ? 0 : Number(kb) * 1024
}

/**
 * RSS of the server's process tree: `total` (the tsx launcher, the server it starts, and anything
 * the server starts) and `largest` (the server itself: the launcher is a small Node process).
 */
export function serverRss(pid: number): { total: number; largest: number } {
  const below = new Set<number>([pid])
  const pids = allPids()
  const parents = new Map(pids.map((p) => [p, parentOf(p)]))
  let grew = true
  while (grew) {
    grew = false
    for (const p of pids) {
      const parent = parents.get(p)
      if (parent != null && below.has(parent) && !below.has(p)) {
        below.add(p)
        grew = true
      }
    }
  }
  let total = 0
  let largest = 0
  for (const p of below) {
    const rss = rssOf(p)
    total += rss
    largest = Math.max(largest, rss)
  }
  return { total, largest }
}

/** Time of one GET /api/health in ms (Infinity when it failed or took over 30 s). */
export async function healthLatency(url: string): Promise<number> {
  const start = performance.now()
  try {
    const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(30_000) })
    await res.arrayBuffer()
    return res.ok ? performance.now() - start : Infinity
  } catch {
    return Infinity
  }
}
