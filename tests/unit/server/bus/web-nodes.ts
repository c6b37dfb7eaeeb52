// A collector (the real app, authentication on, temporary SQLite) answering over the local bus,
// and web nodes (Fastify with the forwarding plugin) on real loopback ports, plus an HTTP caller
// that can pick its source address in 127.0.0.0/8 to play several clients.
import http from 'node:http'
import Fastify, { type FastifyInstance } from 'fastify'
import type { ServerConfig } from '../../../../src/server/config.ts'
import { serveForwardedHttp } from '../../../../src/server/bus/http-serve.ts'
import {
  installHttpForward,
  type HttpForwardOptions,
} from '../../../../src/server/bus/http-forward.ts'
import { buildTestApp } from '../helpers.ts'
import { createLocalBus, type LocalBus } from '../../../support/local-bus.ts'

export interface Collector {
  ctx: Awaited<ReturnType<typeof buildTestApp>>
  stop(): Promise<void>
}

/** The real app, auth on, answering the web nodes' requests on `bus`. */
export async function startCollector(
  bus: LocalBus,
  overrides: Partial<ServerConfig> = {},
): Promise<Collector> {
  const ctx = await buildTestApp({ authDisabled: false, ...overrides })
  const served = serveForwardedHttp(ctx.app.http, bus)
  return {
    ctx,
    stop: async () => {
      served.stop()
      await ctx.close()
    },
  }
}

export interface WebNode {
  app: FastifyInstance
  base: string
  port: number
}

/** A web node: Fastify with the forwarding plugin, listening on 127.0.0.1. */
export async function startWebNode(
  bus: LocalBus,
  options: Omit<HttpForwardOptions, 'bus'> = {},
): Promise<WebNode> {
  const app = Fastify({ logger: false })
  await installHttpForward(app, { bus, ...options })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const port = (app.server.address() as { port: number }).port
  return { app, base: `http://127.0.0.1:${port}`, port }
}

export interface CallOptions {
  body?: unknown
  /** Raw body bytes instead of JSON. */
  raw?: Buffer
  cookies?: Record<string, string>
  csrf?: string
  headers?: Record<string, string>
  /** Source address of the connection (any 127.x.y.z). */
  from?: string
}

export interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  text: string
  json: any // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Every Set-Cookie line, in order. */
  setCookies: string[]
  /** Cookie name → value from the Set-Cookie lines. */
  cookies: Record<string, string>
}

/** One HTTP request to a web node (node:http, so the source address can be chosen). */
export function call(
  node: WebNode,
  method: string,
  path: string,
  o: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...o.headers }
  let body: Buffer | undefined = o.raw
  if (o.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = Buffer.from(JSON.stringify(o.body))
  }
  if (o.cookies) {
    headers.cookie = Object.entries(o.cookies)
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
      .join('; ')
  }
  if (o.csrf !== undefined) headers['x-csrf-token'] = o.csrf
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: node.port, path, method, headers, localAddress: o.from },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {
            json = undefined
          }
          const setCookies = res.headers['set-cookie'] ?? []
          const cookies: Record<string, string> = {}
          for (const line of setCookies) {
            const [pair = ''] = line.split(';')
            const eq = pair.indexOf('=')
            cookies[pair.slice(0, eq)] = decodeURIComponent(pair.slice(eq + 1))
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json,
            setCookies,
            cookies,
          })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

export { createLocalBus, type LocalBus }
