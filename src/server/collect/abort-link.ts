// Abort a controller when another signal aborts, until unlinked: what AbortSignal.any does for a
// call's own timeout and its caller's signal, without its cost. AbortSignal.any builds a composite
// signal and registers it with every source (weak references, cleaned up by the garbage
// collector); the collector makes thousands of calls a cycle at 100k guests, most of them against
// one long-lived cancel signal, and the profile showed it at about 1 % of the main thread.

/**
 * Make `source` aborting abort `target` with the same reason (at once when it already has).
 * Returns the unlink, to call when the call is over, so a long-lived source keeps no listener.
 */
export function linkAbort(target: AbortController, source: AbortSignal | undefined): () => void {
  if (!source) return noop
  if (source.aborted) {
    target.abort(source.reason)
    return noop
  }
  const onAbort = () => target.abort(source.reason)
  source.addEventListener('abort', onAbort, { once: true })
  return () => source.removeEventListener('abort', onAbort)
}

function noop(): void {}
