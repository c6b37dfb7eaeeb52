// Nice values of threads, from /proc (Linux): a thread has a nice value of its own there.
import { readdirSync, readFileSync } from 'node:fs'

/** The nice value in a /proc/…/stat line (field 19; the command name may hold spaces). */
export const niceOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])

/** The nice value of the calling thread. */
export const ownNice = () => niceOf(readFileSync('/proc/thread-self/stat', 'utf8'))

/** The nice value of every thread of process `pid` ('self': this one). */
export const threadNices = (pid: number | 'self') =>
  readdirSync(`/proc/${pid}/task`).map((tid) =>
    niceOf(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')),
  )
