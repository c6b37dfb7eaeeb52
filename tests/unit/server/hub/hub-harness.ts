// A hub on a real ws server on 127.0.0.1 and real clients that record every message.
import WebSocket, { WebSocketServer } from 'ws'
import { createHub, toDialect, type Hub, type HubDeps } from '../../../../src/server/hub/hub.ts'
import { createLiveState, type LiveState } from '../../../../src/server/live/live-state.ts'

export interface Msg {
  type: string
  data?: unknown
  seq?: number
}

export interface HubHarness {
  hub: Hub
  live: LiveState
  /** The hub's and live state's clock (ms); tests move it. */
  clock: { now: number }
  connect(path?: string): Promise<TestClient>
  close(): Promise<void>
}

export interface TestClient {
  ws: WebSocket
  messages: Msg[]
  waitFor(pred: (m: Msg[]) => boolean): Promise<void>
}

/** Start a hub whose warnings go to `log`, with the hub's backpressure `options`. */
export async function startHubHarness(
  log: HubDeps['log'],
  options: Pick<HubDeps, 'highWaterBytes' | 'stallLimitMs' | 'pingIntervalMs' | 'chunkRows'> = {},
): Promise<HubHarness> {
  const clock = { now: 1_700_000_000_000 }
  // The live state counts the hub's clients, and the hub subscribes to the live state.
  const holder: { hub?: Hub } = {}
  const live = createLiveState({
    now: () => clock.now,
    version: 't',
    clientCount: () => holder.hub?.clientCount() ?? 0,
  })
  const hub = (holder.hub = createHub({
    live,
    now: () => clock.now,
    version: 't',
    log,
    ...options,
  }))
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  const started = hub
  wss.on('connection', (socket, req) => {
    const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams
    started.attach(socket, {
      dialect: toDialect(query.get('deltas')),
      backups: query.get('backups') === '1',
    })
  })
  await new Promise<void>((resolve) => wss.once('listening', resolve))
  const port = (wss.address() as { port: number }).port
  return {
    hub,
    live,
    clock,
    async connect(path = '/ws') {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`)
      const messages: Msg[] = []
      const waiters: Array<() => void> = []
      ws.binaryType = 'arraybuffer'
      ws.on('message', (data, isBinary) => {
        // Binary frames (delta mode 2's metrics) are kept as they came.
        messages.push(
          isBinary
            ? { type: 'binary', data: data as ArrayBuffer }
            : (JSON.parse(String(data)) as Msg),
        )
        waiters.splice(0).forEach((w) => w())
      })
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve())
        ws.once('error', reject)
      })
      const waitFor = async (pred: (m: Msg[]) => boolean) => {
        while (!pred(messages)) await new Promise<void>((resolve) => waiters.push(resolve))
      }
      return { ws, messages, waitFor }
    },
    async close() {
      started.close()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    },
  }
}
