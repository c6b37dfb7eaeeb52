// Real HTTPS requests to the simulator on 127.0.0.1. The simulator's certificate is self-signed,
// so these test clients skip verification (pinning is the collector's job, tested there).

import { Agent, fetch } from 'undici'
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
  const headers: Record<string, string> = init.noToken
    ? {}
    : { Authorization: `PVEAPIToken=${cluster.tokenId}=${cluster.tokenSecret}` }
  const res = await fetch(`${cluster.url}/api2/json${path}`, {
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
