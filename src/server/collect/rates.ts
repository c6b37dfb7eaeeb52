// Turns cumulative guest counters into bytes/s (reference/proxmox-api.md §4.1, wire-protocol.md §6.2).
//
// Unlike Pulse we never emit -1: a first sample (or a reset baseline) reports 0 for every rate,
// because our wire contract says rates are non-negative bytes/s and clients need no clamping.
import type { GuestCounters } from './pve-guests.ts'

/** Per-second rates of one guest, integer bytes/s. */
export interface GuestRates {
  netIn: number
  netOut: number
  diskRead: number
  diskWrite: number
}

/** One observation of a guest. */
export interface RateSample {
  node: string
  status: string
  uptime: number
  counters: GuestCounters
  /** Epoch ms of the observation. */
  t: number
}

/** Computes rates per guest key (instance + vmid) across poll cycles. */
export interface RateTracker {
  /** Records a sample and returns the rates to show for it (frozen: copy them, never mutate). */
  update(key: string, sample: RateSample): GuestRates
  /** Forgets guests not seen since `now - forgetAfterMs`. */
  prune(now: number): void
  /** Number of guests currently tracked. */
  readonly size: number
}

interface Entry {
  /** Baseline the next delta is measured from: the last sample whose counters changed. */
  base: RateSample
  rates: GuestRates
  seenAt: number
}

const ZERO: GuestRates = Object.freeze({ netIn: 0, netOut: 0, diskRead: 0, diskWrite: 0 })

/** Creates a tracker. `staleRepeatMs`: how long unchanged counters may repeat the last rates. */
export function createRateTracker(
  options: { forgetAfterMs?: number; staleRepeatMs?: number } = {},
): RateTracker {
  const forgetAfterMs = options.forgetAfterMs ?? 5 * 60_000
  // pvestatd refreshes about every 10 s, so a 10 s poll often sees identical counters and then a
  // doubled delta. Keeping the old baseline through identical samples averages that out. Past
  // this window the guest really is idle, and repeating an old burst rate would be a lie.
  const staleRepeatMs = options.staleRepeatMs ?? 30_000
  const entries = new Map<string, Entry>()

  // Runs for every guest on every poll: no closures, and the rates returned are shared, frozen
  // objects (callers copy the four numbers out) rather than a fresh copy per guest.
  function update(key: string, sample: RateSample): GuestRates {
    if (sample.status !== 'running') {
      entries.delete(key)
      return ZERO
    }
    const prev = entries.get(key)
    if (!prev || isReset(prev.base, sample)) {
      entries.set(key, { base: sample, rates: ZERO, seenAt: sample.t })
      return ZERO
    }
    prev.seenAt = sample.t
    const dtMs = sample.t - prev.base.t
    if (dtMs <= 0) return prev.rates
    const now = sample.counters
    const base = prev.base.counters
    if (
      now.netIn === base.netIn &&
      now.netOut === base.netOut &&
      now.diskRead === base.diskRead &&
      now.diskWrite === base.diskWrite
    ) {
      if (dtMs > staleRepeatMs) prev.rates = ZERO
      return prev.rates
    }
    prev.base = sample
    prev.rates = Object.freeze({
      netIn: perSecond(now.netIn - base.netIn, dtMs),
      netOut: perSecond(now.netOut - base.netOut, dtMs),
      diskRead: perSecond(now.diskRead - base.diskRead, dtMs),
      diskWrite: perSecond(now.diskWrite - base.diskWrite, dtMs),
    })
    return prev.rates
  }

  function prune(now: number): void {
    for (const [key, entry] of entries) {
      if (now - entry.seenAt > forgetAfterMs) entries.delete(key)
    }
  }

  return {
    update,
    prune,
    get size() {
      return entries.size
    },
  }
}

// A restart, a live migration or a host reboot starts a new QEMU/LXC process whose counters begin
// at 0 again: any of those makes the old baseline meaningless.
function isReset(prev: RateSample, cur: RateSample): boolean {
  if (cur.node !== prev.node) return true
  if (cur.uptime < prev.uptime) return true
  const a = cur.counters
  const b = prev.counters
  return (
    a.netIn < b.netIn || a.netOut < b.netOut || a.diskRead < b.diskRead || a.diskWrite < b.diskWrite
  )
}

// Bytes/s over `dtMs`, never negative (a counter reset is caught by isReset first).
function perSecond(delta: number, dtMs: number): number {
  return Math.max(0, Math.round((delta * 1000) / dtMs))
}
