// HTTP GETs of the updater: a time limit on the whole exchange and a size limit on the body, so a
// slow or hostile release server can neither hang a check nor fill the memory or the disk.
//
// Node's http client, not fetch: undici (Node's fetch, and the undici package up to 7.x, the last
// line that runs on Node 20) throws an uncatchable AssertionError from the socket's 'end' handler
// when a server closes the connection while a response body is paused under backpressure
// (nodejs/undici#5360, fixed only in undici 8, which needs Node 22.19). A download written to disk
// pauses its body all the time, so a release server answering `Connection: close` ended the whole
// process (issue 24). node:http has no such path: a refused or failed response is destroyed.
import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import { Transform, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'

export interface BoundedGet {
  timeoutMs: number
  maxBytes: number
}

/** Redirects followed per request (a GitHub asset redirects once, to its storage host). */
const MAX_REDIRECTS = 5

/** The server could not be reached at all (DNS, refused, reset, timed out). */
export class UnreachableError extends Error {
  constructor(
    readonly host: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot reach ${host}: ${reason}`, options)
    this.name = 'UnreachableError'
  }
}

/** The body is larger than allowed. */
class TooLargeError extends Error {}

const tooLarge = (url: string, maxBytes: number) =>
  new TooLargeError(`${url} is larger than ${maxBytes} bytes`)

/** Why a request failed: before an answer the server is unreachable; later, what broke. */
function explain(
  err: unknown,
  url: URL,
  limits: BoundedGet,
  signal: AbortSignal,
  answered: boolean,
) {
  if (err instanceof TooLargeError || err instanceof UnreachableError) return err
  const text = signal.aborted
    ? `no answer within ${limits.timeoutMs / 1000} s`
    : err instanceof Error
      ? err.message
      : String(err)
  if (!answered) return new UnreachableError(url.host, text, { cause: err })
  return new Error(`${url.href} failed: ${text}`, { cause: err })
}

function request(url: URL, signal: AbortSignal): Promise<http.IncomingMessage> {
  const get = url.protocol === 'https:' ? https.get : http.get
  return new Promise((resolve, reject) => {
    // A connection per request (agent: false): the updater asks rarely, and a pooled socket the
    // server has since closed would turn 'refused' into a vague 'socket hang up'.
    const headers = { accept: 'application/json, */*' }
    const req = get(url, { signal, headers, agent: false }, resolve)
    req.once('error', reject)
  })
}

/** Follow redirects to a 2xx answer whose declared length fits; every other answer is destroyed. */
async function open(
  href: string,
  limits: BoundedGet,
  signal: AbortSignal,
): Promise<{ res: http.IncomingMessage; url: URL }> {
  let url = new URL(href)
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`${url.href} is not an http(s) URL`)
    }
    let res: http.IncomingMessage
    try {
      res = await request(url, signal)
    } catch (err) {
      throw explain(err, url, limits, signal, false)
    }
    const status = res.statusCode ?? 0
    const location = res.headers.location
    if (status >= 300 && status < 400 && location) {
      res.destroy()
      if (hop >= MAX_REDIRECTS)
        throw new Error(`${href} redirects more than ${MAX_REDIRECTS} times`)
      url = new URL(location, url)
      continue
    }
    if (status < 200 || status >= 300) {
      res.destroy()
      throw new Error(`${url.href} answered ${status} ${res.statusMessage ?? ''}`.trim())
    }
    const declared = Number(res.headers['content-length'] ?? '')
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      res.destroy()
      throw tooLarge(href, limits.maxBytes)
    }
    return { res, url }
  }
}

/** Counts the bytes passing through and fails the pipeline past the limit. */
function limiter(
  href: string,
  maxBytes: number,
  onBytes: (received: number) => void = () => {},
): Transform {
  let received = 0
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      received += chunk.length
      if (received > maxBytes) return done(tooLarge(href, maxBytes))
      onBytes(received)
      done(null, chunk)
    },
  })
}

/** Read the whole body (at most maxBytes) within timeoutMs. */
export async function getBounded(href: string, limits: BoundedGet): Promise<Buffer> {
  const signal = AbortSignal.timeout(limits.timeoutMs)
  const { res, url } = await open(href, limits, signal)
  const chunks: Buffer[] = []
  try {
    await pipeline(res, limiter(href, limits.maxBytes), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) chunks.push(chunk)
    })
  } catch (err) {
    throw explain(err, url, limits, signal, true)
  }
  return Buffer.concat(chunks)
}

/**
 * Stream the body into `file` (at most maxBytes, within timeoutMs), reporting the bytes received
 * and the expected total (the declared size, else the content length, else 0).
 */
export async function downloadBounded(
  href: string,
  file: string,
  limits: BoundedGet & { expectedBytes: number },
  onProgress: (received: number, total: number) => void,
): Promise<number> {
  const signal = AbortSignal.timeout(limits.timeoutMs)
  const { res, url } = await open(href, limits, signal)
  const length = Number(res.headers['content-length'] ?? '')
  const total =
    limits.expectedBytes > 0 ? limits.expectedBytes : Number.isFinite(length) ? length : 0
  let received = 0
  try {
    await pipeline(
      res,
      limiter(href, limits.maxBytes, (bytes) => {
        received = bytes
        onProgress(bytes, total)
      }),
      fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }),
    )
  } catch (err) {
    throw explain(err, url, limits, signal, true)
  }
  return received
}
