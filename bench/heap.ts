// The heap after a full garbage collection, for the benches that quote one. Node only.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** A full garbage collection, exposed at run time when node was not started with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}

/** heapUsed after a full garbage collection, in MB (10^6 bytes). */
export function heapAfterGcMB(): number {
  collectGarbage()
  return process.memoryUsage().heapUsed / 1e6
}
