// A lease on a JetStream KV key: exactly one holder at a time, handed over when the holder dies.
//
// Timing (ttl = the bucket's max age, after which the server drops a key nobody renewed):
// - a holder renews every ttl/3 with update(revision), which fails if anyone else wrote the key;
// - it considers itself lost when a renewal fails, or when ttl - margin has passed since the start
//   of its last successful renewal (margin = ttl/4). The server stored that renewal after the
//   call started, so it keeps the key until at least that start + ttl: a partitioned holder stops
//   at least `margin` before any standby can create the key (fencing by time, which tolerates a
//   clock-rate skew of up to 25 % and the time the holder needs to stop its work);
// - contenders try create() every ttl/5; it succeeds only once the key is gone (expired, deleted).
// Takeover bound: a holder that dies is replaced at most ttl + ttl/5 after its last renewal
// (expiry plus one retry interval), and never before that holder's own deadline has passed.
// release() deletes the key (only our revision), so a standby wins at its next retry.
import { Kvm, type KV } from '@nats-io/kv'
import type { NatsConnection } from '@nats-io/transport-node'
import type { Lease } from './bus.ts'

export const LEASE_BUCKET = 'pulse_leases'

export interface LeaseDeps {
  nc: NatsConnection
  now?: () => number
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void }
}

/** The lease timings for `ttlMs` (exported for tests and diagnostics). */
export function leaseTimings(ttlMs: number) {
  return { renewMs: ttlMs / 3, retryMs: ttlMs / 5, marginMs: ttlMs / 4 }
}

/** Contend for `key` until release(); the lease is won and lost through onChange. */
export function createLease(deps: LeaseDeps, key: string, holderId: string, ttlMs: number): Lease {
  const now = deps.now ?? Date.now
  let { renewMs, retryMs, marginMs } = leaseTimings(ttlMs)
  const value = new TextEncoder().encode(holderId)
  const listeners = new Set<(held: boolean) => void>()
  let kv: Promise<KV> | null = null
  let revision = 0
  let held = false
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let deadline: ReturnType<typeof setTimeout> | undefined

  const open = async () => {
    const store = await new Kvm(deps.nc).create(LEASE_BUCKET, { history: 1, ttl: ttlMs })
    // An existing bucket keeps its own max age, and the server expires keys by that one: time
    // everything by it, or a holder could outlive its key (the fencing would not hold).
    const bucketTtl = (await store.status()).streamInfo.config.max_age / 1_000_000
    if (bucketTtl > 0 && bucketTtl !== ttlMs) {
      deps.log.warn({ key, ttlMs, bucketTtl }, 'lease bucket has another TTL; using it')
      ttlMs = bucketTtl
      ;({ renewMs, retryMs, marginMs } = leaseTimings(ttlMs))
    }
    if (bucketTtl === 0)
      deps.log.warn({ key }, 'lease bucket has no TTL: a dead holder is never replaced')
    return store
  }
  const bucket = () =>
    (kv ??= open().catch((err) => {
      kv = null
      throw err
    }))

  const setHeld = (next: boolean) => {
    if (held === next) return
    held = next
    deps.log.info({ key, holderId }, next ? 'lease won' : 'lease lost')
    for (const listener of listeners) listener(next)
  }

  const lose = () => {
    clearTimeout(deadline)
    revision = 0
    setHeld(false)
  }

  // Each success moves the deadline; reaching it means we cannot prove we still hold the key.
  const renewed = (startedAt: number, next: number) => {
    revision = next
    clearTimeout(deadline)
    deadline = setTimeout(lose, Math.max(0, startedAt + ttlMs - marginMs - now()))
    setHeld(true)
  }

  const step = async () => {
    const startedAt = now()
    try {
      const store = await bucket()
      if (stopped) return
      const renewing = held
      const next = renewing
        ? await store.update(key, value, revision)
        : await store.create(key, value)
      // Released while the call was in flight: give back what it just won.
      if (stopped) return void store.delete(key, { previousSeq: next }).catch(() => undefined)
      // A renewal that answered after our deadline proves nothing: we already stopped, and the
      // key may be another's by now. Wait for it to expire like any contender.
      if ((renewing && !held) || startedAt + ttlMs - marginMs <= now()) {
        if (held) lose()
      } else renewed(startedAt, next)
    } catch (err) {
      if (held && !stopped) {
        deps.log.warn({ key, err: String(err) }, 'lease renewal failed')
        lose()
      }
    }
    if (!stopped) timer = setTimeout(() => void step(), held ? renewMs : retryMs)
  }
  void step()

  return {
    held: () => held,
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async release() {
      stopped = true
      clearTimeout(timer)
      const was = revision
      lose()
      if (!was || !kv) return
      try {
        await (await kv).delete(key, { previousSeq: was })
      } catch (err) {
        // Someone else's revision or no connection: the key expires on its own.
        deps.log.warn({ key, err: String(err) }, 'lease release failed')
      }
    },
  }
}
