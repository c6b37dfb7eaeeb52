// A small typed client for the PVE REST API (reference/proxmox-api.md §1 and §8): one keep-alive
// undici Agent per host, bounded concurrency, API token or ticket auth, and AppErrors only.
import { performance } from 'node:perf_hooks'
import { request } from 'undici'
import { AppError } from '../../shared/model/errors.ts'
import { linkAbort } from './abort-link.ts'
import { isRecord } from './coerce.ts'
import {
  JsonTooLargeError,
  mapEnvelopeList,
  parseJsonSliced,
  type ListMapper,
} from './json-slices.ts'
import { createLimiter } from './limiter.ts'
import { cleanReason, redactCredentials, toHttpError, toTransportError } from './pve-errors.ts'
import { createTlsAgent } from './tls-agent.ts'
import { fairTimeout } from './fair-timeout.ts'

/** Credentials for one PVE endpoint. */
export type PveAuth =
  | { kind: 'token'; tokenId: string; secret: string }
  | { kind: 'password'; username: string; password: string }

/** Options of createPveClient. */
export interface PveClientOptions {
  /** Base URL, e.g. https://pve1.example.com:8006. */
  host: string
  /**
   * Which Proxmox product answers: both speak /api2/json with a `data` envelope; they differ in
   * the auth header (PVEAPIToken=id=secret vs PBSAPIToken=id:secret) and the ticket cookie.
   */
  product?: 'pve' | 'pbs'
  auth: PveAuth
  verifySSL: boolean
  fingerprint?: string
  /** Per request, default 10 s. */
  timeoutMs?: number
  /** In-flight requests to this host, default 4 (the PVE API has only a few workers). */
  maxConcurrency?: number
  /** Called once per get(), after it settles. */
  onCall?: (info: { path: string; ms: number; ok: boolean }) => void
  /** Clock for ticket renewal; defaults to Date.now. */
  now?: () => number
  /** Largest answer accepted, default 512 MiB: a bigger one is refused as PVE_BAD_RESPONSE. */
  maxAnswerBytes?: number
}

/** A client for one PVE endpoint. */
export interface PveClient {
  /**
   * GETs /api2/json<path> and returns the unwrapped `data`. Throws AppError only. `timeoutMs`
   * overrides the client's for this call; either counts from the request being sent, not the
   * time it waited for one of the host's connections. `each`, when given, maps every element of
   * a list answer as it is parsed (elements mapped to undefined are left out): a listing of
   * hundreds of thousands of entries is then never held as raw objects (json-slices.ts).
   */
  get<T = unknown>(
    path: string,
    query?: Record<string, string | number>,
    signal?: AbortSignal,
    timeoutMs?: number,
    each?: ListMapper,
  ): Promise<T>
  readonly host: string
  close(): Promise<void>
}

// Tickets live 2 h; renewing a little early avoids a 401 round trip on every expiry.
const TICKET_RENEW_MS = 110 * 60_000

interface Ticket {
  value: string
  obtainedAt: number
}

/** Creates a client; nothing is sent until the first get(). */
export function createPveClient(options: PveClientOptions): PveClient {
  const baseUrl = parseBaseUrl(options.host)
  const label = new URL(baseUrl).host
  const pbs = options.product === 'pbs'
  const timeoutMs = options.timeoutMs ?? 10_000
  const maxConcurrency = options.maxConcurrency ?? 4
  const now = options.now ?? Date.now
  const maxAnswerBytes = options.maxAnswerBytes ?? MAX_ANSWER_BYTES
  const agent = createTlsAgent({
    verifySSL: options.verifySSL,
    fingerprint: options.fingerprint,
    connections: maxConcurrency,
  })
  const limiter = createLimiter(maxConcurrency)
  let ticket: Ticket | undefined
  let login: Promise<Ticket> | undefined
  const redact = (text: string) => {
    const auth = options.auth
    const secrets = [auth.kind === 'token' ? auth.secret : auth.password]
    if (ticket) secrets.push(ticket.value)
    return redactCredentials(text, secrets)
  }

  type SendInit = {
    query?: string
    headers: Record<string, string>
    body?: string
    signal?: AbortSignal
    timeoutMs?: number
  }

  // The answer's bytes; parsed by the caller, outside the limiter, so that a large answer's
  // parse does not hold one of the host's request slots.
  async function sendRaw(method: 'GET' | 'POST', path: string, init: SendInit): Promise<Buffer> {
    const timeout = new AbortController()
    const ms = init.timeoutMs ?? timeoutMs
    const deadline = fairTimeout(
      () => timeout.abort(new AppError('PVE_TIMEOUT', { host: label, ms })),
      ms,
    )
    const unlink = linkAbort(timeout, init.signal)
    const signal = timeout.signal
    let body: Buffer
    try {
      const url = `${baseUrl}/api2/json${path}${init.query ? `?${init.query}` : ''}`
      const res = await request(url, {
        method,
        dispatcher: agent,
        headers: { accept: 'application/json', ...init.headers },
        body: init.body,
        signal,
      })
      if (res.statusCode < 200 || res.statusCode >= 300) {
        // PVE puts its reason in the status line; PBS in a plain-text (or JSON) body.
        const reason = pbs ? errorBodyText(await res.body.text()) : ''
        if (!pbs) await res.body.dump()
        // Both may echo our request (auth header, login form): never pass them on unfiltered.
        throw toHttpError(label, res.statusCode, redact(reason || res.statusText))
      }
      body = await readBody(res.body, label, maxAnswerBytes)
    } catch (err) {
      if (err instanceof AppError && err.code === 'PVE_BAD_RESPONSE') throw err
      throw signal.aborted
        ? toAbortError(label, signal.reason, err)
        : toTransportError(label, err, ms)
    } finally {
      deadline.clear()
      unlink()
    }
    return body
  }

  // The timeout bounds the transfer; the parse is ours and yields to the loop as it goes.
  const send = async (method: 'GET' | 'POST', path: string, init: SendInit): Promise<unknown> =>
    parseEnvelope(label, await sendRaw(method, path, init))

  async function obtainTicket(auth: Extract<PveAuth, { kind: 'password' }>): Promise<Ticket> {
    const body = new URLSearchParams({
      username: auth.username,
      password: auth.password,
    }).toString()
    const data = await send('POST', '/access/ticket', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    })
    if (!isRecord(data) || typeof data.ticket !== 'string' || data.ticket === '') {
      throw new AppError('PVE_BAD_RESPONSE', { host: label, reason: 'login answer has no ticket' })
    }
    return { value: data.ticket, obtainedAt: now() }
  }

  async function ensureTicket(
    auth: Extract<PveAuth, { kind: 'password' }>,
    force: boolean,
  ): Promise<Ticket> {
    if (!force && ticket && now() - ticket.obtainedAt < TICKET_RENEW_MS) return ticket
    // One login at a time: parallel calls share it instead of each creating a ticket.
    login ??= obtainTicket(auth).finally(() => (login = undefined))
    ticket = await login
    return ticket
  }

  async function authHeaders(force: boolean): Promise<Record<string, string>> {
    const auth = options.auth
    if (auth.kind === 'token') {
      return {
        authorization: pbs
          ? `PBSAPIToken=${auth.tokenId}:${auth.secret}`
          : `PVEAPIToken=${auth.tokenId}=${auth.secret}`,
      }
    }
    const current = await ensureTicket(auth, force)
    return { cookie: `${pbs ? 'PBSAuthCookie' : 'PVEAuthCookie'}=${current.value}` }
  }

  async function get<T>(
    path: string,
    query?: Record<string, string | number>,
    signal?: AbortSignal,
    callTimeoutMs?: number,
    each?: ListMapper,
  ): Promise<T> {
    const started = performance.now()
    let ok = false
    try {
      const qs = query ? toQueryString(query) : undefined
      const bytes = await limiter.run(async () => {
        try {
          return await sendRaw('GET', path, {
            query: qs,
            headers: await authHeaders(false),
            signal,
            timeoutMs: callTimeoutMs,
          })
        } catch (err) {
          // An expired or revoked ticket: log in again once, then give up.
          if (
            options.auth.kind !== 'password' ||
            !(err instanceof AppError) ||
            err.code !== 'PVE_AUTH_REJECTED'
          )
            throw err
          return await sendRaw('GET', path, {
            query: qs,
            headers: await authHeaders(true),
            signal,
            timeoutMs: callTimeoutMs,
          })
        }
      })
      const result = await parseEnvelope(label, bytes, each)
      ok = true
      return result as T
    } finally {
      options.onCall?.({ path, ms: performance.now() - started, ok })
    }
  }

  return {
    get,
    host: options.host,
    async close() {
      await agent.close()
    },
  }
}

function parseBaseUrl(host: string): string {
  let url: URL
  try {
    url = new URL(host)
  } catch {
    throw new AppError('FIELD_INVALID', {
      field: 'host',
      problem: 'must be a URL like https://host:8006',
    })
  }
  if (url.protocol !== 'https:') {
    throw new AppError('FIELD_INVALID', { field: 'host', problem: 'must use https' })
  }
  return `${url.protocol}//${url.host}`
}

/** The reason in a PBS error body: plain text, or JSON with `message`/`errors`; at most 300 chars. */
function errorBodyText(text: string): string {
  let reason = text.trim()
  try {
    const body = JSON.parse(reason) as unknown
    if (isRecord(body) && typeof body.message === 'string') reason = body.message
  } catch {
    // plain text
  }
  return reason.replace(/\s+/g, ' ').slice(0, 300)
}

function toQueryString(query: Record<string, string | number>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) params.set(key, String(value))
  return params.toString()
}

/** Answers up to this size are parsed in one JSON.parse (a few ms); larger ones in slices. */
const SLICED_FROM_BYTES = 512 * 1024
const MAX_ANSWER_BYTES = 512 * 1024 * 1024
const utf8 = new TextDecoder()

// The bytes as they arrive, refused past `max` without reading the rest.
async function readBody(
  stream: AsyncIterable<Buffer> & { destroy(err?: Error): unknown },
  host: string,
  max: number,
): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    size += chunk.length
    if (size > max) {
      stream.destroy()
      const mib = Math.floor(max / (1024 * 1024))
      throw new AppError('PVE_BAD_RESPONSE', { host, reason: `answer larger than ${mib} MiB` })
    }
    chunks.push(chunk)
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)
}

async function parseEnvelope(host: string, bytes: Buffer, each?: ListMapper): Promise<unknown> {
  let body: unknown
  try {
    // TextDecoder drops a leading BOM, as undici's text() did; parseJsonSliced does the same.
    body =
      bytes.length < SLICED_FROM_BYTES
        ? mapEnvelopeList(JSON.parse(utf8.decode(bytes)), each)
        : await parseJsonSliced(bytes, each ? { each } : {})
  } catch (err) {
    const reason =
      err instanceof JsonTooLargeError ? 'answer holds a value over 16 MiB' : 'body is not JSON'
    throw new AppError('PVE_BAD_RESPONSE', { host, reason })
  }
  if (!isRecord(body) || !('data' in body)) {
    throw new AppError('PVE_BAD_RESPONSE', { host, reason: 'no data field in the body' })
  }
  return body.data
}

// Our own timeout aborts with a PVE_TIMEOUT AppError as the reason; a caller may do the same to
// impose a shorter per-call budget. Any other abort is the caller cancelling.
function toAbortError(host: string, reason: unknown, err: unknown): AppError {
  if (reason instanceof AppError) return reason
  const text = reason instanceof Error ? reason.message : 'request aborted'
  return new AppError(
    'PVE_UNREACHABLE',
    { host, reason: cleanReason(text, 'request aborted') },
    { cause: err },
  )
}
