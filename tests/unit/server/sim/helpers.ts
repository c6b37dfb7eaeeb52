// Real HTTPS requests to the simulator on 127.0.0.1. The simulator's certificate is self-signed,
// so these test clients skip verification (pinning is the collector's job, tested there).

import { Agent, fetch } from 'undici'
import { expect } from 'vitest'
import type { SimCluster } from '../../../../src/server/sim/index.ts'

/** One dispatcher for all simulator tests; closed connections are harmless on stop(). */
export const insecureAgent = new Agent({ connect: { rejectUnauthorized: false } })

/** A decoded simulator reply. */
export interface SimReply {
  status: number
  statusText: string
  contentType: string | null
  text: string
  body: unknown
}

/** Sends a request with the cluster's API token unless `headers` says otherwise. */
export async function callApi(
  cluster: SimCluster,
  path: string,
  init: {
    method?: string
    headers?: Record<string, string>
    body?: string
    noToken?: boolean
  } = {},
): Promise<SimReply> {
  return callAt(cluster.url, cluster, path, init)
}

/** Like callApi, against one specific endpoint of the cluster (a member's own URL). */
export async function callAt(
  baseUrl: string,
  cluster: SimCluster,
  path: string,
  init: {
    method?: string
    headers?: Record<string, string>
    body?: string
    noToken?: boolean
  } = {},
): Promise<SimReply> {
  const headers: Record<string, string> = init.noToken
    ? {}
    : { Authorization: `PVEAPIToken=${cluster.tokenId}=${cluster.tokenSecret}` }
  const res = await fetch(`${baseUrl}/api2/json${path}`, {
    method: init.method ?? 'GET',
    headers: { ...headers, ...init.headers },
    body: init.body,
    dispatcher: insecureAgent,
  })
  const text = await res.text()
  return {
    status: res.status,
    statusText: res.statusText,
    contentType: res.headers.get('content-type'),
    text,
    body: text === '' ? undefined : JSON.parse(text),
  }
}

/** GETs a path with the token and returns its `data`, failing the test on a non-200. */
export async function getData<T = Record<string, unknown>[]>(
  cluster: SimCluster,
  path: string,
): Promise<T> {
  const reply = await callApi(cluster, path)
  if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${reply.statusText}`)
  return (reply.body as { data: T }).data
}

/**
 * The network error code of a request that never got an HTTP answer (ECONNREFUSED, ...), or
 * undefined when an HTTP answer came. A fresh dispatcher per call: a pooled keep-alive socket
 * would report the server's earlier hang-up instead of what a new connection meets.
 */
export async function connectionError(url: string): Promise<string | undefined> {
  const agent = new Agent({ connect: { rejectUnauthorized: false } })
  try {
    await fetch(`${url}/api2/json/version`, { dispatcher: agent })
    return undefined
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause
    return cause?.code ?? String(err)
  } finally {
    await agent.close()
  }
}

/** Walks a JSON value and returns every string that looks like an IPv4 or IPv6 address. */
export function findAddresses(value: unknown): string[] {
  if (typeof value === 'string') {
    const v4 = value.match(/\b\d{1,3}(\.\d{1,3}){3}\b/g) ?? []
    // IPv6 needs '::' here: every simulated IPv6 address is compressed, and MACs never are.
    const v6 = /^[0-9a-f:]+(\/\d+)?$/i.test(value) && value.includes('::') ? [value] : []
    return [...v4, ...v6]
  }
  if (Array.isArray(value)) return value.flatMap(findAddresses)
  if (value !== null && typeof value === 'object')
    return Object.values(value).flatMap(findAddresses)
  return []
}

/** True for the only addresses the simulator may invent: loopback, documentation, link-local. */
export function isSafeAddress(address: string): boolean {
  const bare = address.replace(/\/\d+$/, '')
  if (/^\d/.test(bare) && bare.includes('.')) return bare.startsWith('127.')
  const lower = bare.toLowerCase()
  return lower === '::1' || lower.startsWith('fe80:') || lower.startsWith('2001:db8:')
}

/** A clock the test moves by hand. */
export function createManualClock(startMs: number): {
  now: () => number
  advance(ms: number): void
  set(ms: number): void
} {
  let t = startMs
  return {
    now: () => t,
    advance: (ms) => {
      t += ms
    },
    set: (ms) => {
      t = ms
    },
  }
}

/** A fixed start time (a weekday afternoon) so metrics are reproducible. */
export const START_MS = Date.UTC(2025, 5, 3, 14, 0, 0)

/** Checks an RRD answer: `points` buckets `step` apart, aligned, oldest first, ending at `nowSec`. */
export function expectBuckets(
  rows: { time?: number }[],
  step: number,
  points: number,
  nowSec: number,
): void {
  expect(rows.length).toBe(points)
  for (const [i, row] of rows.entries()) {
    expect(row.time! % step).toBe(0)
    if (i > 0) expect(row.time! - rows[i - 1]!.time!).toBe(step)
  }
  expect(rows[rows.length - 1]!.time).toBe(Math.floor(nowSec / step) * step)
}

/** PVE 9 (and PBS) archives as [timeframe, step seconds, points] (reference §5.1 and §5.3). */
export const PVE9_ARCHIVES: readonly [string, number, number][] = [
  ['hour', 60, 60],
  ['day', 60, 1440],
  ['week', 1800, 336],
  ['month', 1800, 1440],
  ['year', 21600, 1440],
  ['decade', 604800, 570],
]
