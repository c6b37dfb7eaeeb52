// Shared by the node, setup and discovery tests: the real app on 127.0.0.1 with authentication
// off, a real /ws client that collects events, and the simulated servers they talk to.
import WebSocket from 'ws'
import {
  startSimulator,
  type SimCluster,
  type Simulator,
} from '../../../../src/server/sim/index.ts'
import { startAuthServer, type AuthTestServer } from '../auth/auth-helpers.ts'

/** The app with authentication disabled, listening on 127.0.0.1. */
export function startOpenServer(): Promise<AuthTestServer> {
  return startAuthServer({ authDisabled: true })
}

/** A PVE simulator with one cluster of `nodes` members (1 = standalone), few guests, no ticking. */
export async function startPve(
  nodes: number,
  extra: { host?: string; port?: number } = {},
): Promise<{ sim: Simulator; cluster: SimCluster }> {
  const sim = await startSimulator({
    clusters: 1,
    nodesPerCluster: nodes,
    guestsPerNode: 1,
    tickMs: 0,
    ...(extra.host ? { host: extra.host } : {}),
    ...(extra.port ? { ports: [extra.port] } : {}),
  })
  return { sim, cluster: sim.clusters[0]! }
}

export interface SocketEvent {
  type: string
  data?: unknown
}

/** A /ws client that keeps every message; `next(type)` waits for the next one of that type. */
export interface EventSocket {
  next(type: string): Promise<SocketEvent>
  /** Every event type received so far, in order. */
  types(): string[]
  close(): void
}

/** Open /ws on the server (with `headers`, e.g. an API token) and wait until it is connected. */
export async function openEvents(
  base: string,
  headers: Record<string, string> = {},
): Promise<EventSocket> {
  const ws = new WebSocket(base.replace('http', 'ws') + '/ws', { headers })
  const received: SocketEvent[] = []
  const consumed = new Set<number>()
  const waiters: Array<() => void> = []
  ws.on('message', (raw) => {
    received.push(JSON.parse(String(raw)) as SocketEvent)
    for (const wake of waiters.splice(0)) wake()
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  return {
    async next(type) {
      for (;;) {
        const index = received.findIndex((e, i) => !consumed.has(i) && e.type === type)
        if (index >= 0) {
          consumed.add(index)
          return received[index]!
        }
        await new Promise<void>((resolve) => waiters.push(resolve))
      }
    },
    types: () => received.map((e) => e.type),
    close: () => ws.close(),
  }
}
