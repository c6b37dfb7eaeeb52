// The Bus (bus.ts) over NATS: live messages in the JetStream stream PULSE_LIVE, request/reply on
// core NATS (rpc.ts), leases in JetStream KV (lease.ts). Payloads of any size are chunked
// (chunks.ts). One collector publishes at a time (the lease), and it publishes the chunks of a
// message one after the other, each acknowledged, so a message's chunks are contiguous and in
// order in the stream.
import {
  DeliverPolicy,
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from '@nats-io/jetstream'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import type { Bus, Lease, LiveMessage } from './bus.ts'
import { ChunkJoiner, chunkSize, readPart, splitChunks } from './chunks.ts'
import { createLease } from './lease.ts'
import { requestRpc, serveRpc } from './rpc.ts'

export const LIVE_STREAM = 'PULSE_LIVE'
export const LIVE_SUBJECT = 'pulse.live.state'
const EPOCH_HEADER = 'Pulse-Epoch'
const SEQ_HEADER = 'Pulse-Seq'
const KIND_HEADER = 'Pulse-Kind'

/** Web nodes catch up from the stream for this long; older gaps are healed by a snapshot. */
const MAX_AGE_MS = 10 * 60_000
/** Several full 100,000-guest deltas fit; the oldest are discarded first. */
const MAX_BYTES = 1024 * 1024 * 1024
/** How long close() lets a drain take before closing hard. */
const DRAIN_MS = 2_000

export interface BusLog {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
}

export interface ConnectBusOptions {
  /** nats://host:port; the only address the bus ever connects to. */
  url: string
  /** The connection name the NATS server shows (role and id). */
  name: string
  log: BusLog
}

/** Connect to NATS and make sure the live stream exists. */
export async function connectBus(options: ConnectBusOptions): Promise<Bus> {
  let nc: NatsConnection
  try {
    nc = await connect({ servers: options.url, name: options.name, maxReconnectAttempts: -1 })
  } catch (err) {
    throw new Error(`Cannot connect to NATS at ${options.url}: ${String(err)}`, { cause: err })
  }
  try {
    await ensureStream(nc)
  } catch (err) {
    await nc.close()
    throw new Error(`Cannot set up JetStream at ${options.url}: ${String(err)}`, { cause: err })
  }
  void watchStatus(nc, options)
  return createNatsBus(nc, options.log)
}

async function watchStatus(nc: NatsConnection, options: ConnectBusOptions) {
  for await (const status of nc.status()) {
    if (status.type === 'disconnect') options.log.warn({ url: options.url }, 'NATS disconnected')
    if (status.type === 'reconnect') options.log.info({ url: options.url }, 'NATS reconnected')
  }
}

/** Create or update PULSE_LIVE, so every role can start first (idempotent). */
async function ensureStream(nc: NatsConnection): Promise<void> {
  const jsm = await jetstreamManager(nc)
  const config: Partial<StreamConfig> & { name: string } = {
    name: LIVE_STREAM,
    subjects: ['pulse.live.>'],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_age: MAX_AGE_MS * 1_000_000,
    max_bytes: MAX_BYTES,
  }
  try {
    await jsm.streams.info(LIVE_STREAM)
    await jsm.streams.update(LIVE_STREAM, config)
  } catch (err) {
    if (!/stream not found/i.test(String(err))) throw err
    await jsm.streams.add(config)
  }
}

/** The Bus over an open connection (closing the bus closes it). */
export function createNatsBus(nc: NatsConnection, log: BusLog): Bus {
  const js = jetstream(nc)
  const chunk = () => chunkSize(nc.info?.max_payload ?? 1024 * 1024)
  const rpc = { nc, chunk, log }
  // Publications are serialised so the chunks of two messages never interleave.
  let publishing: Promise<unknown> = Promise.resolve()
  const leases = new Set<Lease>()
  let up = !nc.isClosed()
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' || status.type === 'close') up = false
      if (status.type === 'reconnect') up = true
    }
  })()

  return {
    connected: () => up && !nc.isClosed(),
    publishLive(message) {
      const run = async () => {
        const parts = splitChunks(message.body, chunk(), {
          [EPOCH_HEADER]: message.epoch,
          [SEQ_HEADER]: String(message.seq),
          [KIND_HEADER]: message.kind,
        })
        for (const part of parts)
          await js.publish(LIVE_SUBJECT, part.data, { headers: part.headers })
      }
      const done = publishing.then(run)
      publishing = done.catch(() => undefined)
      return done
    },
    consumeLive(afterStreamSeq, onMessage, onError) {
      return consumeLive(nc, afterStreamSeq, onMessage, onError ?? (() => undefined))
    },
    async lastLiveSeq() {
      const jsm = await jetstreamManager(nc)
      return (await jsm.streams.info(LIVE_STREAM)).state.last_seq
    },
    serve: (subject, handler) => serveRpc(rpc, subject, handler),
    request: (subject, payload, timeoutMs) => requestRpc(rpc, subject, payload, timeoutMs),
    lease(key, holderId, ttlMs) {
      const lease = createLease({ nc, log }, key, holderId, ttlMs)
      leases.add(lease)
      return lease
    },
    async close() {
      // A clean shutdown hands the leases over at once instead of after their expiry.
      await Promise.all([...leases].map((lease) => lease.release()))
      await publishing
      if (nc.isClosed()) return
      // Drain lets answers in flight go out, but it waits for the server: a partitioned or
      // reconnecting connection would hold shutdown forever.
      let timer: ReturnType<typeof setTimeout> | undefined
      const limit = new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_MS)))
      await Promise.race([nc.drain().catch(() => undefined), limit])
      clearTimeout(timer)
      if (!nc.isClosed()) await nc.close()
    },
  }
}

function consumeLive(
  nc: NatsConnection,
  afterStreamSeq: number,
  onMessage: (message: LiveMessage, streamSeq: number) => void,
  onError: (error: Error) => void,
): { stop(): void } {
  let stopped = false
  let close: (() => void) | null = null
  const joiner = new ChunkJoiner()
  const start = async () => {
    // An ordered consumer: ephemeral, in stream order, recreated by the client after a reset
    // from the last position it delivered, so no chunk is skipped or repeated silently.
    const consumer = await jetstream(nc).consumers.get(LIVE_STREAM, {
      filter_subjects: LIVE_SUBJECT,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: afterStreamSeq + 1,
    })
    if (stopped) return
    const messages = await consumer.consume({
      callback: (m) => {
        const part = readPart(m.headers)
        const whole = part ? joiner.add(part, m.data) : null
        if (!whole) return
        const kind = m.headers?.get(KIND_HEADER)
        onMessage(
          {
            epoch: m.headers?.get(EPOCH_HEADER) ?? '',
            seq: Number(m.headers?.get(SEQ_HEADER)),
            kind: kind === 'event' ? 'event' : 'delta',
            body: whole,
          },
          m.seq,
        )
      },
    })
    close = () => void messages.stop()
    if (stopped) close()
  }
  start().catch((err: unknown) => {
    if (!stopped) onError(err instanceof Error ? err : new Error(String(err)))
  })
  return {
    stop() {
      stopped = true
      close?.()
    },
  }
}
