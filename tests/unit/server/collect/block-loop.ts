// Keeps this thread busy, as a long synchronous task of ours does (a large parse, a garbage
// collection): setup for tests of what happens to deadlines while the loop cannot run.

/** Blocks the event loop for `ms`. */
export function blockLoop(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until);
}
