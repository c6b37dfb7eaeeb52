// Replays recorded delta-mode-2 frames into the real worker API (store, socket lifecycle, view
// subscriptions) over a scripted socket, with a guest view subscribed as the dashboard does; the
// socket's own `pulse:parse` / `pulse:apply` measures are read back. Runs in a Web Worker of
// Chromium (worker-apply-entry.ts) and in Node (worker-apply.ts), on the same frames.
import { createWorkerApi } from '../../src/worker/worker-api.ts'
import type { SocketLike } from '../../src/worker/socket.ts'
import { DEFAULT_GUEST_VIEW_REQUEST } from '../../src/shared/views/guest-view-types.ts'

/** One recorded frame: text, or the index of a binary frame in `binaries`. */
export interface ReplayFrame {
  text?: string
  binary?: number
  /** First frame of a live cycle: the replay waits `gapMs` before it (views flush meanwhile). */
  cycle?: boolean
}

/** One `performance.measure` of the worker code. */
export interface ReplayMeasure {
  name: string
  start: number
  ms: number
  type: string
}

export interface ReplayOptions {
  frames: readonly ReplayFrame[]
  binaries: readonly ArrayBuffer[]
  gapMs: number
  /** The first load is in; the live cycles start once the returned promise resolves. */
  onLoaded?: () => Promise<void>
  /** Each guest view model (the page's side of the subscription). */
  onModel?: (model: unknown) => void
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Replays the frames; resolves with the measures taken during the live cycles. */
export async function replayFrames(options: ReplayOptions) {
  const { frames, binaries, gapMs } = options
  let socket: SocketLike | null = null
  const api = createWorkerApi({
    socket: {
      createSocket() {
        socket = {
          readyState: 1,
          onopen: null,
          onclose: null,
          onmessage: null,
          onerror: null,
          send() {},
          close() {},
        }
        return socket
      },
      setTimeout: (run, ms) => setTimeout(run, ms),
      clearTimeout: (handle) => clearTimeout(handle as number),
      setInterval: (run, ms) => setInterval(run, ms),
      clearInterval: (handle) => clearInterval(handle as number),
      now: () => Date.now(),
      warn: () => {},
    },
  })
  let models = 0
  const request = { ...DEFAULT_GUEST_VIEW_REQUEST, window: { start: 0, count: 60 } }
  const id = api.subscribe(request, (model) => {
    models++
    options.onModel?.(model)
  })
  api.connect({ url: 'ws://127.0.0.1/ws', deltas: true })
  const open = socket as SocketLike | null
  if (!open) throw new Error('no socket')
  open.onopen?.({})
  // Observed as they are made: the socket clears the timeline every few hundred measures.
  const measures: ReplayMeasure[] = []
  let live = false
  const observer = new PerformanceObserver((list) => {
    if (!live) return
    for (const e of list.getEntries()) {
      if (e.name !== 'pulse:parse' && e.name !== 'pulse:apply') continue
      const type = String((e as PerformanceMeasure).detail?.type ?? 'unknown')
      measures.push({ name: e.name, start: e.startTime, ms: e.duration, type })
    }
  })
  observer.observe({ type: 'measure' })
  let cycles = 0
  for (const frame of frames) {
    if (frame.cycle) {
      if (cycles++ === 0) {
        await sleep(gapMs)
        await options.onLoaded?.()
        live = true
      }
      await sleep(gapMs)
    } else await sleep(0)
    open.onmessage?.({ data: frame.text ?? binaries[frame.binary!]! })
  }
  await sleep(gapMs)
  observer.disconnect()
  api.unsubscribe(id)
  api.disconnect()
  return { measures, models, cycles }
}
