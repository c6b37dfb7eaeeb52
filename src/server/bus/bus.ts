// The message bus between roles (ARCHITECTURE.md "Several machines"): what the collector and web
// roles need from NATS JetStream, as an interface. `nats-bus.ts` implements it over NATS; the
// single-process role (PULSE_ROLE=all) uses no bus at all.
//
// Payloads are bytes of any size: the implementation splits what exceeds the server's
// max_payload into chunks and joins them again, so callers never see a size limit.
//
// On NATS: live messages in the JetStream stream PULSE_LIVE (subject pulse.live.state, 10 min,
// 1 GiB); the collector's snapshot on request/reply subject pulse.snapshot (live-publisher.ts);
// leases in the JetStream KV bucket pulse_leases (lease.ts, where the timing bounds are stated).

/** One publication of the collector's live state, as carried on the bus. */
export interface LiveMessage {
  /**
   * Identifies one run of one collector (its id and start time). A new epoch means a new
   * sequence: a web node takes a snapshot instead of applying deltas across epochs.
   */
  epoch: string
  /** The collector's publication sequence (LiveState seq), +1 per message within an epoch. */
  seq: number
  /** 'delta': `body` is the JSON StateDelta from seq - 1; 'event': a socket event {type, data}. */
  kind: 'delta' | 'event'
  body: Uint8Array
}

/** A held or wanted lease (JetStream KV): exactly one holder per key at a time. */
export interface Lease {
  /** True while this process holds the lease (renewed in time). */
  held(): boolean
  /** Called with true when the lease is won, false when it is lost (renewal failed or expired). */
  onChange(listener: (held: boolean) => void): () => void
  /** Give the lease up at once (clean shutdown), so a standby need not wait for the expiry. */
  release(): Promise<void>
}

export interface RpcHandler {
  /** The answer, whole or in pieces (sent as their concatenation, never joined in one turn). */
  (request: Uint8Array): Promise<Uint8Array | readonly Uint8Array[]>
}

export interface Bus {
  /** Append a live message to the JetStream stream. Resolves once the stream has stored it. */
  publishLive(message: LiveMessage): Promise<void>
  /**
   * Live messages stored after stream position `afterStreamSeq` (0: all still stored), in order,
   * with each one's stream position so a consumer can resume after a reconnect. `onError` is
   * called when the consumer cannot be set up (no stream, no connection).
   */
  consumeLive(
    afterStreamSeq: number,
    onMessage: (message: LiveMessage, streamSeq: number) => void,
    onError?: (error: Error) => void,
  ): { stop(): void }
  /**
   * The stream position of the last stored live message (0 when none). Consuming after it and
   * then asking for a snapshot loses nothing: whatever the snapshot lacks is stored after it.
   */
  lastLiveSeq(): Promise<number>
  /**
   * Answer requests on `subject` (request/reply; errors are the handler's to encode, a thrown
   * error rejects the request with its message). `ready` resolves once the server knows of it.
   */
  serve(subject: string, handler: RpcHandler): { stop(): void; ready: Promise<void> }
  /** Send a request and wait for its answer; rejects on timeout or when no one serves it. */
  request(subject: string, payload: Uint8Array, timeoutMs: number): Promise<Uint8Array>
  /**
   * Contend for the lease `key` (KV key characters: letters, digits, - _ = . /); `ttlMs` is how
   * long a holder that stopped renewing keeps it. close() releases every lease of this bus.
   */
  lease(key: string, holderId: string, ttlMs: number): Lease
  /** True while the connection to the server is up (false from a disconnect to the reconnect). */
  connected(): boolean
  close(): Promise<void>
}
