// Joins the per-endpoint results of a cycle into the collected state's lists. The slower
// collectors hand back the same arrays between their refreshes; when every part is the one of last
// cycle, the joined list is last cycle's too, so the server's diff sees an unchanged reference
// instead of comparing thousands of backups by value every 10 s.

/** A joiner for one list: `join(parts)` concatenates, reusing the previous result when possible. */
export function createListJoiner<T>(): (parts: readonly (readonly T[])[]) => T[] {
  let lastParts: readonly (readonly T[])[] = []
  let lastResult: T[] = []
  return (parts) => {
    const same =
      parts.length === lastParts.length && parts.every((part, i) => part === lastParts[i])
    if (same) return lastResult
    lastParts = parts
    lastResult = parts.length === 1 ? (parts[0] as T[]) : parts.flat()
    return lastResult
  }
}
