// A tiny real HTTPS server on 127.0.0.1 that answers like PVE, for client and poller tests.
// Not the simulator (src/server/sim): each test scripts exactly the answers it needs.
import { X509Certificate } from 'node:crypto'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { generate } from 'selfsigned'

/** A self-signed certificate for 127.0.0.1 and its SHA-256 fingerprint (AA:BB:... form). */
export interface TestCert {
  key: string
  cert: string
  fingerprint256: string
}

/** Generates a certificate; slow, so once per test file. */
export async function createTestCert(): Promise<TestCert> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  })
  return {
    key: pems.private,
    cert: pems.cert,
    fingerprint256: new X509Certificate(pems.cert).fingerprint256,
  }
}

/** One request as the server saw it. */
export interface SeenRequest {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: string
}

/** An answer: status, optional reason phrase, and a body (objects are JSON-encoded). */
export interface StubAnswer {
  status?: number
  reason?: string
  body?: unknown
  delayMs?: number
}

/** The scripted behaviour: receives each request, returns the answer. */
export type StubHandler = (req: SeenRequest) => StubAnswer | Promise<StubAnswer>

/** A running stub server. */
export interface StubPve {
  url: string
  requests: SeenRequest[]
  handler: StubHandler
  close(): Promise<void>
}

/** Starts a stub on 127.0.0.1 with an ephemeral port. */
export async function startStubPve(cert: TestCert, handler: StubHandler): Promise<StubPve> {
  const stub: StubPve = { url: '', requests: [], handler, close: async () => {} }
  const server: Server = createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    void answer(stub, req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  stub.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  stub.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return stub
}

async function answer(stub: StubPve, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const seen: SeenRequest = {
    method: req.method ?? 'GET',
    path: req.url ?? '/',
    headers: req.headers,
    body: Buffer.concat(chunks).toString('utf8'),
  }
  stub.requests.push(seen)
  const out = await stub.handler(seen)
  if (out.delayMs) await new Promise((resolve) => setTimeout(resolve, out.delayMs))
  if (res.destroyed) return
  const body = typeof out.body === 'string' ? out.body : JSON.stringify(out.body ?? { data: null })
  res.writeHead(out.status ?? 200, out.reason ?? 'OK', {
    'content-type': 'application/json;charset=UTF-8',
  })
  res.end(body)
}
