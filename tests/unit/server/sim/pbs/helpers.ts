// Real HTTPS requests to the PBS simulator on 127.0.0.1. Its certificate is self-signed, so these
// test clients skip verification (pinning is the collector's job, tested there).

import { Agent, fetch } from 'undici'
import type { SimPbsServer } from '../../../../../src/server/sim/pbs/index.ts'

/** One dispatcher for all PBS simulator tests. */
export const insecureAgent = new Agent({ connect: { rejectUnauthorized: false } })

/** A decoded simulator reply; `body` is undefined when the text is not JSON (PBS errors). */
export interface PbsReply {
  status: number
  contentType: string | null
  text: string
  body: unknown
}

/** Sends a request with the server's API token unless `headers` or `noToken` say otherwise. */
export async function callPbs(
  server: SimPbsServer,
  path: string,
  init: {
    method?: string
    headers?: Record<string, string>
    body?: string
    noToken?: boolean
  } = {},
): Promise<PbsReply> {
  const headers: Record<string, string> = init.noToken
    ? {}
    : { Authorization: `PBSAPIToken=${server.tokenId}:${server.tokenSecret}` }
  const res = await fetch(`${server.url}/api2/json${path}`, {
    method: init.method ?? 'GET',
    headers: { ...headers, ...init.headers },
    body: init.body,
    dispatcher: insecureAgent,
  })
  const text = await res.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: res.status, contentType: res.headers.get('content-type'), text, body }
}

/** GETs a path with the token and returns its `data`, failing the test on a non-200. */
export async function getPbsData<T = Record<string, unknown>[]>(
  server: SimPbsServer,
  path: string,
): Promise<T> {
  const reply = await callPbs(server, path)
  if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${reply.text}`)
  return (reply.body as { data: T }).data
}

/** A clock the test moves by hand. */
export function createManualClock(startMs: number): { now: () => number; set(ms: number): void } {
  let t = startMs
  return {
    now: () => t,
    set: (ms) => {
      t = ms
    },
  }
}

/** A fixed start: Tuesday 2025-06-03 14:00 UTC, between two nightly windows. */
export const START_MS = Date.UTC(2025, 5, 3, 14, 0, 0)
/** Milliseconds in an hour, for moving the clock. */
export const HOUR_MS = 3_600_000
