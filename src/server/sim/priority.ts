// The simulator's process gives way to the server it feeds (demo.ts asks for it). In the demo the
// simulator stands in for the estate's own machines, which would not share the dashboard's CPU;
// on a small machine (2 cores, 100,000 guests) its rendering would otherwise compete with the
// server's loop for every core.
import { readdirSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'

/** The lowest priority (the highest nice value). */
const LOWEST = 19

/**
 * Lowers every thread of this process by `steps` nice levels (capped at 19). On Linux a thread has
 * a nice value of its own: each of the threads already running is set (V8's and libuv's start
 * before any script), and threads started later take their creator's. Elsewhere the process's
 * priority is lowered. Raising a nice value needs no privilege; a refusal leaves it as it was.
 */
export function lowerPriority(steps: number): void {
  const lower = (id: number) => {
    try {
      setPriority(id, Math.min(LOWEST, getPriority(id) + steps))
    } catch {
      // Not permitted here: that thread keeps its priority.
    }
  }
  if (process.platform !== 'linux') return lower(0)
  for (const tid of readdirSync('/proc/self/task')) lower(Number(tid))
}
