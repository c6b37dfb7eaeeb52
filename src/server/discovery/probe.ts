// Identify a Proxmox server at ip:port without credentials. Both products answer an
// unauthenticated GET /api2/json/version with 401; they differ in the web page (its title names
// the product, script URLs carry ?ver=), PVE's Server header (pve-api-daemon) and the port.
import https from 'node:https'
import net from 'node:net'
import type { TLSSocket } from 'node:tls'
import type { DiscoveredServer, NodeType } from '../../shared/model/node-config.ts'

/** An HTTPS answer, body cut at BODY_LIMIT. */
interface Answer {
  status: number
  server: string
  body: string
  /** Subject CN of the server's certificate. */
  commonName?: string
}

export interface ProbeOptions {
  /** TCP connect budget. */
  connectTimeoutMs: number
  /** Budget of each HTTPS request. */
  requestTimeoutMs: number
}

/** Outcome of one probe: a server, nothing there, or a connect error worth reporting. */
export type ProbeResult =
  { kind: 'found'; server: DiscoveredServer } | { kind: 'none' } | { kind: 'error'; code: string }

const BODY_LIMIT = 64 * 1024
// Answers that just mean "nothing listens here": not worth an error line.
const QUIET_CODES = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'ECONNRESET'])

/** Probe one address and port. Never throws. */
export async function probeServer(
  ip: string,
  port: number,
  options: ProbeOptions,
): Promise<ProbeResult> {
  const open = await checkPort(ip, port, options.connectTimeoutMs)
  if (open !== 'open') return open === 'closed' ? { kind: 'none' } : { kind: 'error', code: open }
  const api = await httpsGet(ip, port, '/api2/json/version', options.requestTimeoutMs)
  if (!api) return { kind: 'none' }
  const page = await httpsGet(ip, port, '/', options.requestTimeoutMs)
  const type = identify(port, api, page)
  if (!type) return { kind: 'none' }
  const server: DiscoveredServer = { ip, port, type, version: 'unknown' }
  const info = versionInfo(api, page)
  if (info.version) server.version = info.version
  if (info.release) server.release = info.release
  const hostname = api.commonName ?? page?.commonName
  if (hostname && net.isIP(hostname) === 0) server.hostname = hostname
  return { kind: 'found', server }
}

/** 'open', 'closed', or an unusual error code (unreachable network, permission). */
function checkPort(ip: string, port: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: ip, port })
    const done = (result: string) => {
      socket.destroy()
      resolve(result)
    }
    socket.setTimeout(timeoutMs, () => done('closed'))
    socket.once('connect', () => done('open'))
    socket.once('error', (err: NodeJS.ErrnoException) => {
      const code = err.code ?? 'ERROR'
      done(QUIET_CODES.has(code) ? 'closed' : code)
    })
  })
}

/** GET over HTTPS without verifying the certificate (we only read public pages); null on failure. */
function httpsGet(
  ip: string,
  port: number,
  path: string,
  timeoutMs: number,
): Promise<Answer | null> {
  return new Promise((resolve) => {
    const req = https.request(
      {
        host: ip,
        port,
        path,
        method: 'GET',
        rejectUnauthorized: false,
        agent: false,
        timeout: timeoutMs,
      },
      (res) => {
        const cert = (res.socket as TLSSocket).getPeerCertificate?.()
        const cn = cert?.subject?.CN
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size <= BODY_LIMIT) chunks.push(chunk)
          else res.destroy()
        })
        const finish = () =>
          resolve({
            status: res.statusCode ?? 0,
            server: String(res.headers.server ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
            commonName: typeof cn === 'string' && cn ? cn : undefined,
          })
        res.once('end', finish)
        res.once('close', finish)
      },
    )
    req.once('timeout', () => req.destroy(new Error('timeout')))
    req.once('error', () => resolve(null))
    req.end()
  })
}

/** PVE, PBS, or null (something else answering HTTPS on that port). */
export function identify(port: number, api: Answer, page: Answer | null): NodeType | null {
  const title = /<title>([^<]*)<\/title>/i.exec(page?.body ?? '')?.[1] ?? ''
  for (const text of [title, page?.body ?? '']) {
    if (/Proxmox Backup Server/i.test(text)) return 'pbs'
    if (/Proxmox Virtual Environment/i.test(text)) return 'pve'
  }
  if (/pve-api-daemon/i.test(api.server) || /pve-api-daemon/i.test(page?.server ?? '')) return 'pve'
  // A bare 401 on the API path is Proxmox-like; only the standard ports say which product.
  if (api.status === 401) {
    if (port === 8006) return 'pve'
    if (port === 8007) return 'pbs'
  }
  return null
}

/** Version (and release) when revealed without credentials: an open /version, or ?ver= in the page. */
function versionInfo(api: Answer, page: Answer | null): { version?: string; release?: string } {
  if (api.status === 200) {
    try {
      const data = (JSON.parse(api.body) as { data?: { version?: unknown; release?: unknown } })
        .data
      const out: { version?: string; release?: string } = {}
      if (typeof data?.version === 'string') out.version = data.version
      if (typeof data?.release === 'string') out.release = data.release
      if (out.version) return out
    } catch {
      // Not JSON: fall through to the page.
    }
  }
  const ver = /[?&]ver=(\d+(?:\.\d+)+)/.exec(page?.body ?? '')?.[1]
  return ver ? { version: ver } : {}
}
