// Forked by loop-stats.test.ts: starts the hook as main.ts does, then blocks its loop once.
import { startLoopStatsHook } from '../../../src/server/loop-stats.ts'

const started = startLoopStatsHook()
process.send?.({ type: 'started', started })
process.on('message', (message: { type?: string }) => {
  if (message.type !== 'block') return
  const until = Date.now() + 120
  while (Date.now() < until) {
    // a blocked event loop, as a long synchronous task would cause
  }
  process.send?.({ type: 'blocked' })
})
process.on('disconnect', () => process.exit(0))
