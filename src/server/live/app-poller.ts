// The server's poller: in a thread of its own (poller-thread.ts, the default), or on the loop
// (poller.ts), feeding the live state and the recent history either way.
import type { HistoryServices } from '../history/wiring.ts'
import type { LiveState } from './live-state.ts'
import { createPoller, type Poller } from '../collect/poller.ts'
import { createThreadedPoller } from '../collect/poller-thread.ts'

export interface AppPollerDeps {
  threaded: boolean
  intervalMs: number
  now: () => number
  log: {
    info(obj: object, msg: string): void
    warn(obj: object, msg: string): void
    error(obj: object, msg: string): void
  }
  live: LiveState
  history: Pick<HistoryServices, 'record'>
}

/** The poller of buildApp; close() stops it for good. */
export function createAppPoller(deps: AppPollerDeps): Poller & { close(): Promise<void> } {
  const { live, history, log, now } = deps
  const failed = (err: unknown) => log.error({ err }, 'publishing the polled state failed')
  if (deps.threaded) {
    return createThreadedPoller({
      intervalMs: deps.intervalMs,
      log,
      onChanges: (changes) => {
        live
          .applyCollectedChanges(changes)
          .then(({ collected }) => history.record(collected, now()), failed)
      },
      onRestart: () => live.restartCollected(),
    })
  }
  const poller = createPoller({
    intervalMs: deps.intervalMs,
    now,
    log,
    onState: (collected) => {
      void history.record(collected, now())
      live.applyCollected(collected).catch(failed)
    },
  })
  return { ...poller, close: () => poller.stop() }
}
