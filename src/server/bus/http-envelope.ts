// What a web node and the collector exchange for a browser's HTTP request on the bus: a JSON head
// (method, url, headers, client address / status, headers) and the body as raw bytes, framed as
// [4-byte big-endian head length][UTF-8 JSON head][body]. Raw bytes, not base64 in JSON: the
// state answer at 100,000 guests is tens of megabytes.

/** Subject the collector answers browsers' HTTP requests on. */
export const HTTP_SUBJECT = 'pulse.http'
/** Subject the collector answers /ws admissions on. */
export const WS_ADMIT_SUBJECT = 'pulse.ws.admit'

export type HeaderMap = Record<string, string | string[]>

export interface ForwardedRequest {
  method: string
  /** Path and query, as the browser sent them. */
  url: string
  /** End-to-end headers only (hop-by-hop stripped), names lower case. */
  headers: HeaderMap
  /**
   * The client's address as the web node sees it: its TCP peer, exactly what a single process
   * would take as request.ip (Pulse never reads X-Forwarded-For for the client address). The
   * collector applies its own TRUSTED_PROXIES to it, as if the client had connected directly.
   */
  remoteAddress: string
}

export interface ForwardedResponse {
  status: number
  /** End-to-end headers; every Set-Cookie value kept, in order. */
  headers: HeaderMap
}

/** Who a /ws admission let in, or why not. */
export type WsAdmission =
  | {
      admitted: true
      username: string
      method: string
      isAdmin: boolean
      /** The credentials it holds (socket-registry.ts); absent from an older collector. */
      owner?: unknown
    }
  | { admitted: false; status: number; headers: HeaderMap; body: string }

/**
 * Headers that belong to one connection, never forwarded (RFC 9110 7.6.1), plus the length and
 * encoding of a body the receiving side frames itself.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'http2-settings',
])

type AnyHeaders = Record<string, string | string[] | number | undefined>

/** Copy `headers` without hop-by-hop ones, nor those the Connection header names. */
export function endToEndHeaders(headers: AnyHeaders): HeaderMap {
  const named = new Set<string>()
  const connection = headers.connection
  for (const value of [connection ?? []].flat()) {
    for (const token of String(value).split(',')) named.add(token.trim().toLowerCase())
  }
  const out: HeaderMap = {}
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase()
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue
    out[name] = Array.isArray(value) ? value.map(String) : String(value)
  }
  return out
}

/** Frame a JSON head and a body into one message. */
export function encodeFrame(head: unknown, body: Uint8Array = new Uint8Array(0)): Uint8Array {
  const json = Buffer.from(JSON.stringify(head), 'utf8')
  const out = Buffer.allocUnsafe(4 + json.length + body.length)
  out.writeUInt32BE(json.length, 0)
  json.copy(out, 4)
  out.set(body, 4 + json.length)
  return out
}

/** Split a framed message into its parsed head and body; throws on a malformed frame. */
export function decodeFrame<T>(frame: Uint8Array): { head: T; body: Buffer } {
  const buf = Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength)
  if (buf.length < 4) throw new Error('bus frame too short')
  const length = buf.readUInt32BE(0)
  if (4 + length > buf.length) throw new Error('bus frame head overruns the message')
  const head = JSON.parse(buf.subarray(4, 4 + length).toString('utf8')) as T
  return { head, body: buf.subarray(4 + length) }
}

const LONG_MS = 120_000
const DEFAULT_MS = 30_000

/**
 * How long a web node waits for the collector's answer. Most answers take milliseconds; 30 s
 * covers a slow disk. The routes that do slow work by design get 120 s: configuration export and
 * import (scrypt), update checks and the start of an update (the download itself runs on in the
 * background and reports progress over the socket), discovery, diagnostics, and anything that
 * tests a connection or a notification (PVE, SMTP and webhook calls with their own timeouts of
 * up to 30 s, sometimes several in a row).
 */
export function forwardTimeoutMs(method: string, url: string): number {
  const path = url.split('?')[0] ?? url
  if (
    /^\/api\/config\/(export|import)$/.test(path) ||
    path.startsWith('/api/updates/') ||
    path.startsWith('/api/discover') ||
    path === '/api/diagnostics' ||
    /(^|\/)test(-connection)?$/.test(path) ||
    (method !== 'GET' && path.startsWith('/api/config/nodes'))
  ) {
    return LONG_MS
  }
  return DEFAULT_MS
}
