// Identity memoization for pipeline stages (STYLE.md "A pipeline stage").

/**
 * Wrap a stage so it reruns only when one of its arguments changes identity (===); otherwise the
 * previous output is returned as is, which keeps every later stage memoized too.
 */
export function memoizeStage<A extends readonly unknown[], R>(
  run: (...args: A) => R,
  onRun?: () => void,
): (...args: A) => R {
  let lastArgs: A | null = null
  let lastResult: R
  return (...args: A): R => {
    if (lastArgs && sameArgs(lastArgs, args)) return lastResult
    onRun?.()
    lastResult = run(...args)
    lastArgs = args
    return lastResult
  }
}

function sameArgs(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
