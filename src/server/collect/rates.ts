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
  /** Records a sample and returns the rates to show for it. */
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
const KEYS = ['netIn', 'netOut', 'diskRead', 'diskWrite'] as const

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

  function update(key: string, sample: RateSample): GuestRates {
    const prev = entries.get(key)
    if (sample.status !== 'running') {
      entries.delete(key)
      return { ...ZERO }
    }
    if (!prev || isReset(prev.base, sample)) {
      entries.set(key, { base: sample, rates: { ...ZERO }, seenAt: sample.t })
      return { ...ZERO }
    }
    prev.seenAt = sample.t
    const dtMs = sample.t - prev.base.t
    if (dtMs <= 0) return { ...prev.rates }
    if (KEYS.every((k) => sample.counters[k] === prev.base.counters[k])) {
      if (dtMs > staleRepeatMs) prev.rates = { ...ZERO }
      return { ...prev.rates }
    }
    const rates = { ...ZERO }
    for (const k of KEYS) {
      rates[k] = Math.max(
        0,
        Math.round(((sample.counters[k] - prev.base.counters[k]) * 1000) / dtMs),
      )
    }
    prev.base = sample
    prev.rates = rates
    return { ...rates }
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
  return KEYS.some((k) => cur.counters[k] < prev.counters[k])
}
