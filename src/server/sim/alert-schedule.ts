// The demo's scripted alert conditions as pure functions of (seed, elapsed time): a few guests
// whose CPU spikes on a cycle, a few whose memory leaks and is reclaimed, and one node that goes
// down for a few minutes every hour. alert-scenarios.ts applies them to the model; keeping the
// timing here, free of model state, lets tests ask "what happens at minute 4" without waiting.

import { hash01 } from './prng.ts'

const SEC = 1000
const MIN = 60 * SEC
const SCHEDULE_SALT = 0xa1e7

/** Guests per cluster whose CPU spikes, and whose memory climbs past the alert threshold. */
export const CPU_SPIKERS = 3
export const MEMORY_HOGS = 2

/** One guest's CPU cycle: high for `highMs` out of every `periodMs`, first rising at `firstMs`. */
export interface CpuSpike {
  seed: number
  slot: number
  periodMs: number
  highMs: number
  /** Elapsed ms of the first rise; negative when the guest is already high at start. */
  firstMs: number
}

/** One guest's memory sawtooth: climbs from `low` to `high` over `periodMs`, then drops. */
export interface MemoryLeak {
  seed: number
  slot: number
  periodMs: number
  /** Elapsed ms at which a cycle begins (at `low`); negative when the first began before start. */
  firstMs: number
  low: number
  high: number
}

/** A node that goes offline for `downMs` every `periodMs`, the first time at `firstMs`. */
export interface NodeOutage {
  periodMs: number
  downMs: number
  firstMs: number
}

// CPU values: a spike sits at 86-94 %, quiet time at 8-50 % (cleared well below the 75 % clear).
const SPIKE_LOW = 0.86
const SPIKE_SPAN = 0.08
const QUIET_LOW = 0.08
const QUIET_SPAN = 0.42
// Memory: 60 % after a restart of the leaking service, 95 % just before the next one.
const LEAK_LOW = 0.6
const LEAK_HIGH = 0.95
// Values change every 10 s (a tick), like real samples, but stay the same within one.
const SAMPLE_MS = 10 * SEC

/**
 * The CPU spike of spiker `slot` in a cluster. Spiker 0 is high from just before start for
 * 2.5-4 minutes (so alerts show in the first minute and resolve soon after); the others are
 * spread over their cycles so spikes keep coming.
 */
export function planCpuSpike(seed: number, slot: number): CpuSpike {
  const periodMs = Math.round((6 + 6 * hash01(seed, SCHEDULE_SALT, slot, 1)) * MIN)
  const highMs = Math.round((2.5 + 1.5 * hash01(seed, SCHEDULE_SALT, slot, 2)) * MIN)
  const firstMs =
    slot === 0
      ? -Math.round((20 + 30 * hash01(seed, SCHEDULE_SALT, slot, 3)) * SEC)
      : Math.round(
          ((slot * periodMs) / CPU_SPIKERS) * (0.6 + 0.4 * hash01(seed, SCHEDULE_SALT, slot, 3)),
        )
  return { seed, slot, periodMs, highMs, firstMs }
}

/** Whether the spiking guest is in a high phase at `elapsedMs` after start. */
export function isSpiking(spike: CpuSpike, elapsedMs: number): boolean {
  return positiveMod(elapsedMs - spike.firstMs, spike.periodMs) < spike.highMs
}

/** CPU fraction (0-1) of the spiking guest at `elapsedMs` after start. */
export function cpuAt(spike: CpuSpike, elapsedMs: number): number {
  const jitter = hash01(spike.seed, SCHEDULE_SALT + spike.slot, Math.floor(elapsedMs / SAMPLE_MS))
  return isSpiking(spike, elapsedMs)
    ? SPIKE_LOW + SPIKE_SPAN * jitter
    : QUIET_LOW + QUIET_SPAN * jitter
}

/**
 * The memory leak of hog `slot` in a cluster: a cycle of 8-14 minutes. Hog 0 starts 78 % into a
 * cycle, so it is above 85 % from the first poll and drops back within 2 minutes or so.
 */
export function planMemoryLeak(seed: number, slot: number): MemoryLeak {
  const periodMs = Math.round((8 + 6 * hash01(seed, SCHEDULE_SALT, 100 + slot, 1)) * MIN)
  const into =
    slot === 0 ? 0.78 : (slot * 0.5 + 0.3 * hash01(seed, SCHEDULE_SALT, 100 + slot, 2)) % 1
  return {
    seed,
    slot,
    periodMs,
    firstMs: -Math.round(into * periodMs),
    low: LEAK_LOW,
    high: LEAK_HIGH,
  }
}

/** Memory fraction (0-1) of the leaking guest at `elapsedMs` after start. */
export function memoryAt(leak: MemoryLeak, elapsedMs: number): number {
  const phase = positiveMod(elapsedMs - leak.firstMs, leak.periodMs) / leak.periodMs
  const sample = Math.floor(elapsedMs / SAMPLE_MS)
  const noise = (hash01(leak.seed, SCHEDULE_SALT + 100 + leak.slot, sample) - 0.5) * 0.01
  return leak.low + (leak.high - leak.low) * phase + noise
}

/** The hourly outage: 3 minutes down, the first starting 4-5 minutes after start. */
export function planNodeOutage(seed: number): NodeOutage {
  const firstMs = Math.round((4 + hash01(seed, SCHEDULE_SALT, 200)) * MIN)
  return { periodMs: 60 * MIN, downMs: 3 * MIN, firstMs }
}

/** Whether the scheduled node is down at `elapsedMs` after start. */
export function isNodeDown(outage: NodeOutage, elapsedMs: number): boolean {
  if (elapsedMs < outage.firstMs) return false
  return (elapsedMs - outage.firstMs) % outage.periodMs < outage.downMs
}

function positiveMod(value: number, modulus: number): number {
  const r = value % modulus
  return r < 0 ? r + modulus : r
}
