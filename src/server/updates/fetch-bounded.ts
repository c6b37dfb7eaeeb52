// HTTP GETs of the updater: a time limit on the whole exchange and a size limit on the body, so a
// slow or hostile release server can neither hang a check nor fill the memory or the disk.
import fs from 'node:fs'

export interface BoundedGet {
  timeoutMs: number
  maxBytes: number
}

function reason(err: unknown, url: string, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `no answer from ${url} within ${timeoutMs / 1000} s`
  }
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : ''
  const text = err instanceof Error ? err.message : String(err)
  return cause ? `${text} (${cause})` : text
}

async function open(url: string, limits: BoundedGet, signal: AbortSignal): Promise<Response> {
  let res: Response
  try {
    res = await fetch(url, { signal, headers: { accept: 'application/json, */*' } })
  } catch (err) {
    throw new Error(reason(err, url, limits.timeoutMs), { cause: err })
  }
  if (!res.ok) {
    await res.body?.cancel()
    throw new Error(`${url} answered ${res.status} ${res.statusText}`.trim())
  }
  const declared = Number(res.headers.get('content-length') ?? '')
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    await res.body?.cancel()
    throw new Error(`${url} is larger than ${limits.maxBytes} bytes`)
  }
  return res
}

/** Read the whole body (at most maxBytes) within timeoutMs. */
export async function getBounded(url: string, limits: BoundedGet): Promise<Buffer> {
  const signal = AbortSignal.timeout(limits.timeoutMs)
  const res = await open(url, limits, signal)
  const chunks: Buffer[] = []
  let total = 0
  try {
    for await (const chunk of res.body ?? []) {
      total += chunk.length
      if (total > limits.maxBytes) throw new Error(`${url} is larger than ${limits.maxBytes} bytes`)
      chunks.push(Buffer.from(chunk))
    }
  } catch (err) {
    if (err instanceof Error && err.message.includes('larger than')) throw err
    throw new Error(reason(err, url, limits.timeoutMs), { cause: err })
  }
  return Buffer.concat(chunks)
}

/**
 * Stream the body into `file` (at most maxBytes, within timeoutMs), reporting the bytes received
 * and the expected total (the declared size, else the content length, else 0).
 */
export async function downloadBounded(
  url: string,
  file: string,
  limits: BoundedGet & { expectedBytes: number },
  onProgress: (received: number, total: number) => void,
): Promise<number> {
  const signal = AbortSignal.timeout(limits.timeoutMs)
  const res = await open(url, limits, signal)
  const length = Number(res.headers.get('content-length') ?? '')
  const total =
    limits.expectedBytes > 0 ? limits.expectedBytes : Number.isFinite(length) ? length : 0
  const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 })
  let received = 0
  try {
    for await (const chunk of res.body ?? []) {
      received += chunk.length
      if (received > limits.maxBytes)
        throw new Error(`${url} is larger than ${limits.maxBytes} bytes`)
      if (!out.write(chunk))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()))
      onProgress(received, total)
    }
  } catch (err) {
    out.destroy()
    if (err instanceof Error && err.message.includes('larger than')) throw err
    throw new Error(reason(err, url, limits.timeoutMs), { cause: err })
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  )
  return received
}
