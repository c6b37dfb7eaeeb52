// Turns what the counting clients received into the many-clients figures: first-load times, per
// cycle who received it (delta, resync or nothing) and the spread of arrival, bytes per cycle,
// and what the paused clients got when they resumed. Format-agnostic (see ws-counting-client.ts).
import type { CountingClient, ReceivedMessage } from './ws-counting-client.ts'

/** How a message counts: part of a full state, a live cycle, or neither. */
export type MessageKind = 'control' | 'load' | 'cycle' | 'other'

const CONTROL = new Set(['welcome', 'ping', 'pong'])
// Any name for a full state or a piece of one (the lead may chunk the first load).
const LOAD = /initial|full|snapshot|chunk|resync|state/i

/** Classifies a message by its type; binary frames are live cycle data (metrics frames). */
export function kindOf(m: ReceivedMessage): MessageKind {
  if (m.binary) return 'cycle'
  if (m.type !== null && CONTROL.has(m.type)) return 'control'
  if (m.type !== null && m.type !== 'delta' && m.type !== 'rawData' && LOAD.test(m.type))
    return 'load'
  return m.seq !== null || m.type === 'delta' || m.type === 'rawData' ? 'cycle' : 'other'
}

/** The end of a client's first load: the last load message before its first live cycle. */
export function firstLoadEnd(messages: readonly ReceivedMessage[]): number | null {
  let end: number | null = null
  for (const m of messages) {
    const kind = kindOf(m)
    if (kind === 'load') end = m.at
    else if (kind === 'cycle' && end !== null) break
  }
  return end
}

/** The first load is over: a live cycle arrived after a load message (a chunked load may end only then). */
export function firstLoadDone(messages: readonly ReceivedMessage[]): boolean {
  let loading = false
  for (const m of messages) {
    const kind = kindOf(m)
    if (kind === 'load') loading = true
    else if (kind === 'cycle' && loading) return true
  }
  return false
}

interface SeqArrival {
  firstAt: number
  bytes: number
  full: boolean
}

/**
 * What one client received per seq after `from`: messages without a seq (binary metrics frames,
 * chunks) count towards the last seq the client saw.
 */
export function arrivalsBySeq(
  messages: readonly ReceivedMessage[],
  from: number,
): Map<number, SeqArrival> {
  const out = new Map<number, SeqArrival>()
  let current: SeqArrival | null = null
  for (const m of messages) {
    const kind = kindOf(m)
    if (kind === 'control' || kind === 'other') continue
    if (m.seq !== null) {
      current = out.get(m.seq) ?? null
      if (m.at >= from && !current) {
        current = { firstAt: m.at, bytes: 0, full: false }
        out.set(m.seq, current)
      }
    }
    if (current && m.at >= from) {
      current.bytes += m.bytes
      if (kind === 'load') current.full = true
    }
  }
  return out
}

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}
export const quantile = (values: readonly number[], q: number): number => {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
}
const round = (n: number) => Math.round(n * 10) / 10

export interface CycleFigures {
  seq: number
  /** Clients that received this cycle (as a delta or as a fresh full state). */
  received: number
  resyncs: number
  /** Of the clients that kept reading, how many did not receive it. */
  steadyMissing: number
  /** Arrival spread over the steady receivers: last minus first, and the median behind the first. */
  spreadMs: number
  medianLagMs: number
  medianBytesPerClient: number
}

/**
 * Per-cycle figures for every seq after `from` up to `lastSeq`. The spread is taken over the
 * steady clients only (a paused client reads its cycles late by design).
 */
export function cycleFigures(
  clients: readonly CountingClient[],
  steady: ReadonlySet<number>,
  from: number,
  lastSeq: number,
): CycleFigures[] {
  const perClient = clients.map((c) => arrivalsBySeq(c.messages, from))
  const seqs = new Set<number>()
  for (const map of perClient) for (const seq of map.keys()) if (seq <= lastSeq) seqs.add(seq)
  return [...seqs]
    .sort((a, b) => a - b)
    .map((seq) => {
      const got = perClient.flatMap((map, i) => {
        const a = map.get(seq)
        return a ? [{ i, ...a }] : []
      })
      const steadyGot = got.filter((a) => steady.has(a.i))
      const first = Math.min(...steadyGot.map((a) => a.firstAt))
      const lags = steadyGot.map((a) => a.firstAt - first)
      return {
        seq,
        received: got.length,
        resyncs: got.filter((a) => a.full).length,
        steadyMissing: steady.size - steadyGot.length,
        spreadMs: round(Math.max(...lags)),
        medianLagMs: round(median(lags)),
        medianBytesPerClient: median(got.map((a) => a.bytes)),
      }
    })
}

export interface SlowClientFigures {
  /** Closed by the server (or the connection failed) while paused or after. */
  closed: boolean
  closeCode: number | null
  /** Messages read after the resume that carried a seq published before it (a backlog). */
  backlogMessages: number
  backlogBytes: number
  /** A full state (or part of one) arrived after the resume. */
  gotFullState: boolean
  /** It received a cycle published after the resume (caught up). */
  caughtUp: boolean
  /** From the resume to the first cycle published after it. */
  msToCaughtUp: number | null
}

/**
 * What a client paused from `pausedAt` to `resumedAt` received once it read again. `lastSeqAtResume`
 * is the newest seq the steady clients had seen when the resume happened.
 */
export function slowClientFigures(
  client: CountingClient,
  resumedAt: number,
  lastSeqAtResume: number,
): SlowClientFigures {
  const after = client.messages.filter((m) => m.at >= resumedAt)
  let backlogMessages = 0
  let backlogBytes = 0
  let gotFullState = false
  let caughtAt: number | null = null
  for (const m of after) {
    const kind = kindOf(m)
    if (kind === 'load') gotFullState = true
    if (m.seq !== null && m.seq <= lastSeqAtResume && kind === 'cycle') {
      backlogMessages++
      backlogBytes += m.bytes
    }
    if (m.seq !== null && m.seq > lastSeqAtResume && caughtAt === null) caughtAt = m.at
  }
  return {
    closed: client.closed !== null,
    closeCode: client.closed?.code ?? null,
    backlogMessages,
    backlogBytes,
    gotFullState,
    caughtUp: caughtAt !== null,
    msToCaughtUp: caughtAt === null ? null : round(caughtAt - resumedAt),
  }
}
