// The worker of worker-apply.ts, bundled by esbuild: replays the recorded frames it is sent
// (apply-replay.ts) and posts the guest view's models to the page as Comlink would (structured
// clone), then the measures.
import { replayFrames, type ReplayFrame } from './apply-replay.ts'

interface Start {
  kind: 'start'
  frames: ReplayFrame[]
  binaries: ArrayBuffer[]
  gapMs: number
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Start | { kind: 'go' }>) => void) | null
  postMessage(message: unknown): void
}

let go: () => void = () => {}
const started = new Promise<void>((resolve) => (go = resolve))

scope.onmessage = async (event) => {
  if (event.data.kind === 'go') return go()
  const result = await replayFrames({
    ...event.data,
    onLoaded: () => {
      // The page may start a profile of this worker before the live cycles.
      scope.postMessage({ kind: 'loaded' })
      return started
    },
    onModel: (model) => scope.postMessage({ kind: 'model', model }),
  })
  scope.postMessage({ kind: 'done', ...result })
}
scope.postMessage({ kind: 'ready' })
