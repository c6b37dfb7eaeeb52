// A browser behind a web node sees what a browser on the collector sees: over a real nats-server
// (small max_payload, so messages are chunked) and real sockets, both delta dialects receive the
// same frames, byte for byte, cycle after cycle while guests come and go; a lost message makes the
// web node resync and its browsers reload, then follow the collector's frames again.
import WebSocket, { WebSocketServer } from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bus } from '../../../../src/server/bus/bus.ts'
import { createLivePublisher } from '../../../../src/server/bus/live-publisher.ts'
import { createLiveReplica } from '../../../../src/server/bus/live-replica.ts'
import { connectBus } from '../../../../src/server/bus/nats-bus.ts'
import { createHub, toDialect, type Hub } from '../../../../src/server/hub/hub.ts'
import { createLiveState } from '../../../../src/server/live/live-state.ts'
import { applyDelta } from '../../../../src/shared/model/delta.ts'
import type { StateDelta } from '../../../../src/shared/model/messages.ts'
import type { State } from '../../../../src/shared/model/state.ts'
import { natsUnavailable, startNatsServer, type NatsServer } from '../../../support/nats-server.ts'
import { makeCollected } from '../collected-fixture.ts'
import { canonical, quietLog, waitFor } from './bus-helpers.ts'

/** A frame as it came off the socket: text as is, binary as bytes. */
interface Frame {
  text: string | null
  bytes: Buffer | null
  msg: { type?: string; seq?: number; metrics?: number; data?: unknown } | null
}

interface Client {
  frames: Frame[]
  close(): void
}

async function serve(hub: Hub): Promise<{ port: number; close(): Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  wss.on('connection', (socket, req) => {
    const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams
    hub.attach(socket, { dialect: toDialect(query.get('deltas')) })
  })
  await new Promise<void>((resolve) => wss.once('listening', resolve))
  return {
    port: (wss.address() as { port: number }).port,
    close: () => new Promise<void>((resolve) => wss.close(() => resolve())),
  }
}

async function connect(port: number, path: string): Promise<Client> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`)
  const frames: Frame[] = []
  ws.on('message', (data, isBinary) => {
    const buffer = Buffer.from(data as Buffer)
    if (isBinary) frames.push({ text: null, bytes: buffer, msg: null })
    else {
      const text = buffer.toString('utf8')
      frames.push({ text, bytes: null, msg: JSON.parse(text) as Frame['msg'] })
    }
  })
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  return { frames, close: () => ws.close() }
}

/** The delta frames (with their binary metrics frames) of seqs `from`..`to`. */
function deltas(client: Client, from: number, to: number): Frame[] {
  const out: Frame[] = []
  let taking = false
  for (const frame of client.frames) {
    if (frame.msg)
      taking = frame.msg.type === 'delta' && frame.msg.seq! >= from && frame.msg.seq! <= to
    if (taking) out.push(frame)
  }
  return out
}

/** True once the client has the delta of `seq` whole (its metrics frame too, when one follows). */
function has(client: Client, seq: number): boolean {
  const at = client.frames.findIndex((f) => f.msg?.type === 'delta' && f.msg.seq === seq)
  if (at < 0) return false
  return client.frames[at]!.msg!.metrics === undefined || client.frames[at + 1]?.bytes != null
}

const lastIndex = (client: Client, type: string) =>
  client.frames.findLastIndex((f) => f.msg?.type === type)

describe.skipIf(natsUnavailable())('a browser behind a web node', () => {
  let server: NatsServer
  let collectorBus: Bus
  let webBus: Bus
  const cleanups: Array<() => unknown> = []

  beforeAll(async () => {
    server = await startNatsServer({ maxPayload: 16 * 1024 })
    collectorBus = await connectBus({ url: server.url, name: 'collector', log: quietLog })
    webBus = await connectBus({ url: server.url, name: 'web', log: quietLog })
  })
  afterAll(async () => {
    for (const step of cleanups.reverse()) await step()
    await collectorBus?.close()
    await webBus?.close()
    await server?.dispose()
  })

  it("receives the collector's frames cycle after cycle, and reloads after a gap", async () => {
    let drop = false
    const lossy: Bus = {
      ...collectorBus,
      publishLive(message) {
        if (!drop || message.kind !== 'delta') return collectorBus.publishLive(message)
        drop = false
        return Promise.resolve()
      },
    }
    const hubs: { collector?: Hub; web?: Hub } = {}
    const live = createLiveState({
      now: Date.now,
      version: 't',
      clientCount: () => hubs.collector?.clientCount() ?? 0,
    })
    const collectorHub = (hubs.collector = createHub({
      live,
      now: Date.now,
      version: 't',
      log: quietLog,
    }))
    const publisher = createLivePublisher({ bus: lossy, live, collectorId: 'f', log: quietLog })
    await publisher.ready
    let tick = 0
    const poll = () => live.applyCollected(makeCollected(60, ++tick))
    for (let i = 0; i < 3; i++) await poll()

    const replica = createLiveReplica({
      bus: webBus,
      version: 't',
      clientCount: () => hubs.web?.clientCount() ?? 0,
      onEvent: () => undefined,
      retryMs: 50,
      log: quietLog,
    })
    const webHub = (hubs.web = createHub({
      live: replica.live,
      now: Date.now,
      version: 't',
      log: quietLog,
    }))
    cleanups.push(() => {
      replica.stop()
      publisher.stop()
      webHub.close()
      collectorHub.close()
    })
    await waitFor(() => replica.status().seq === live.current().seq, 'the web node to sync')
    const servers = [await serve(collectorHub), await serve(webHub)]
    cleanups.push(() => Promise.all(servers.map((s) => s.close())))
    const [onCollector, onWeb] = servers.map((s) => s.port) as [number, number]
    const c2 = await connect(onCollector, '/ws?deltas=2')
    const c1 = await connect(onCollector, '/ws?deltas=1')
    const w2 = await connect(onWeb, '/ws?deltas=2')
    const w1 = await connect(onWeb, '/ws?deltas=1')
    const clients = [c2, c1, w2, w1]
    cleanups.push(() => clients.forEach((c) => c.close()))
    await waitFor(
      () => [c2, w2].every((c) => lastIndex(c, 'snapshotEnd') >= 0),
      'the first loads (mode 2)',
    )
    await waitFor(() => [c1, w1].every((c) => lastIndex(c, 'initialState') >= 0), 'mode 1 loads')

    // Guests come and go on odd ticks (the fixture): structural and metric cycles alike.
    const cycles = async (count: number) => {
      const first = live.current().seq + 1
      for (let i = 0; i < count; i++) {
        const { seq } = await poll()
        await waitFor(() => clients.every((c) => has(c, seq)), `every client at seq ${seq}`)
      }
      return { first, last: live.current().seq }
    }
    const same = ({ first, last }: { first: number; last: number }) => {
      const byDialect: Array<[Client, Client]> = [
        [w2, c2],
        [w1, c1],
      ]
      for (const [web, collector] of byDialect) {
        const theirs = deltas(collector, first, last)
        expect(theirs.some((f) => f.bytes)).toBe(web === w2)
        expect(deltas(web, first, last)).toEqual(theirs)
      }
    }
    same(await cycles(5))

    // A lost delta: the web node sees the gap at the next one and takes a snapshot.
    const resyncs = replica.status().resyncs
    const loads = { w2: lastIndex(w2, 'snapshotEnd'), w1: lastIndex(w1, 'initialState') }
    drop = true
    await poll()
    await poll()
    await publisher.flushed()
    await waitFor(() => replica.status().resyncs > resyncs, 'the resync')
    await waitFor(
      () => lastIndex(w2, 'snapshotEnd') > loads.w2 && lastIndex(w1, 'initialState') > loads.w1,
      "the web node's browsers to load its new state",
    )
    same(await cycles(4))

    // What the mode 1 browser behind the web node merged is the collector's state.
    const load = w1.frames[lastIndex(w1, 'initialState')]!.msg!
    let merged = load.data as State
    for (const frame of w1.frames.slice(lastIndex(w1, 'initialState') + 1)) {
      if (frame.msg?.type === 'delta') merged = applyDelta(merged, frame.msg.data as StateDelta)
    }
    expect(canonical(merged)).toEqual(canonical(live.current().state))
  })
})
