// A hostile (or misconfigured) endpoint that echoes our request back, in the status line and in
// the body: the real app on 127.0.0.1 (SQLite on a temp dir, logs captured) and a loopback HTTPS
// stub. Neither the answers nor any log line may carry the token secret or the password.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createTestCert,
  startStubPve,
  type SeenRequest,
  type StubPve,
  type TestCert,
} from '../collect/stub-pve.ts'
import { startAuthServer, type AuthTestServer } from '../auth/auth-helpers.ts'

const TOKEN_SECRET = 'e7c1a9d2-5f3b-4c8e-9a6d-1b2c3d4e5f60'
const PASSWORD = 'hunter2 & "quoted" pass!'

/** Everything the request carried that could be a credential, in one line. */
function echo(req: SeenRequest): string {
  const { authorization = '', cookie = '' } = req.headers
  return `echo: ${req.method} ${req.path} authorization=${authorization} cookie=${cookie} body=${req.body}`
}

let cert: TestCert
let stub: StubPve
let server: AuthTestServer
let status = 500
beforeAll(async () => {
  cert = await createTestCert()
  stub = await startStubPve(cert, (req) => {
    const text = echo(req)
    // Latin-1 only in a status line; the body (what PBS errors are read from) gets it verbatim.
    return {
      status,
      reason: text.replace(/[^\x20-\x7e]/g, '?'),
      body: { message: text, data: null },
    }
  })
})
afterAll(async () => {
  await stub.close()
})
beforeEach(async () => {
  server = await startAuthServer({ authDisabled: true }, { captureLogs: true })
  stub.requests.length = 0
})
afterEach(async () => {
  await server.close()
})

const forms = (secret: string) => [
  secret,
  encodeURIComponent(secret),
  new URLSearchParams({ s: secret }).toString().slice(2),
]

/** Neither `text` nor any captured log line contains a form of `secret`. */
function expectNoLeak(text: string, secret: string): void {
  for (const form of forms(secret)) {
    expect(text).not.toContain(form)
    expect(server.logs.join('\n')).not.toContain(form)
  }
}

const credentials = {
  token: { tokenName: 'monitor@pve!echo', tokenValue: TOKEN_SECRET },
  password: { user: 'root@pam', password: PASSWORD },
} as const

describe.each(['pve', 'pbs'] as const)('a %s endpoint that echoes the request', (type) => {
  it.each([
    ['token', 500],
    ['token', 403],
    ['token', 595],
    ['password', 500],
    ['password', 403],
  ] as const)(
    'test-connection by %s (answer %i) shows neither the secret nor logs it',
    async (kind, code) => {
      status = code
      const res = await server.call('POST', '/api/config/nodes/test-connection', {
        body: { type, host: stub.url, fingerprint: cert.fingerprint256, ...credentials[kind] },
      })
      expect(res.status).toBeGreaterThanOrEqual(500)
      // The stub did see the secret: the test is about what comes back, not what was sent.
      expect(echo(stub.requests[0]!)).toMatch(kind === 'token' ? TOKEN_SECRET : /hunter2/)
      expect(res.json.message).toContain('[redacted]')
      expectNoLeak(res.text, kind === 'token' ? TOKEN_SECRET : PASSWORD)
    },
  )

  it('a stored node polled there shows no secret in its error or the logs', async () => {
    status = 500
    const added = await server.call('POST', '/api/config/nodes', {
      body: { type, name: 'echo', host: stub.url, fingerprint: cert.fingerprint256 },
    })
    expect(added.status).toBe(400) // no credentials: refused, nothing stored
    const stored = await server.call('POST', '/api/config/nodes', {
      body: {
        type,
        name: 'echo',
        host: stub.url,
        fingerprint: cert.fingerprint256,
        ...credentials.token,
      },
    })
    expect(stored.status).toBe(201)
    // The poller polls on every change; wait for its verdict (no fixed sleep).
    let nodes: Array<{ status: string; error?: string }> = []
    await expect
      .poll(async () => {
        nodes = (await server.call('GET', '/api/config/nodes')).json
        return nodes[0]?.status
      })
      .toBe('error')
    expect(nodes[0]?.error).toBeTruthy()
    const all = await server.call('GET', '/api/config/nodes')
    expectNoLeak(all.text, TOKEN_SECRET)
    const state = await server.call('GET', '/api/state')
    expectNoLeak(state.text, TOKEN_SECRET)
  })
})
