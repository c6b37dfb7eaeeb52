import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { AppError } from '../../../../src/shared/model/errors.ts'
import {
  createPveClient,
  type PveClient,
  type PveClientOptions,
} from '../../../../src/server/collect/pve-client.ts'
import { createTestCert, startStubPve, type StubPve, type TestCert } from './stub-pve.ts'
import { blockLoop } from './block-loop.ts'

const TOKEN = {
  kind: 'token' as const,
  tokenId: 'monitor@pve!dash',
  secret: '3f6c1e9a-5b2d-4c1e-9f0a-7d2b8c4e1a55',
}

let cert: TestCert
let stub: StubPve
const clients: PveClient[] = []

beforeAll(async () => {
  cert = await createTestCert()
  stub = await startStubPve(cert, () => ({ body: { data: [] } }))
})

afterAll(async () => {
  await stub.close()
})

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  stub.requests.length = 0
  stub.handler = () => ({ body: { data: [] } })
})

function clientFor(overrides: Partial<PveClientOptions> = {}): PveClient {
  const client = createPveClient({ host: stub.url, auth: TOKEN, verifySSL: false, ...overrides })
  clients.push(client)
  return client
}

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppError)
  return err as AppError
}

describe('createPveClient', () => {
  it('sends the API token header and returns the unwrapped data', async () => {
    stub.handler = () => ({ body: { data: { version: '8.4.14' } } })
    const data = await clientFor().get('/version')
    expect(data).toEqual({ version: '8.4.14' })
    expect(stub.requests[0]?.path).toBe('/api2/json/version')
    expect(stub.requests[0]?.headers.authorization).toBe(
      `PVEAPIToken=${TOKEN.tokenId}=${TOKEN.secret}`,
    )
  })

  it('maps each entry of a list answer with `each`, small or parsed in slices', async () => {
    // Entries with an odd vmid are kept as their volid; the rest are left out.
    const each = (entry: unknown) => {
      const { vmid, volid } = entry as { vmid: number; volid: string }
      return vmid % 2 === 1 ? volid : undefined
    }
    // 3 entries, and 20,000 (about 1.3 MB: over the size parsed in slices).
    for (const count of [3, 20_000]) {
      const data = Array.from({ length: count }, (_, i) => ({
        vmid: 100 + i,
        volid: `pbs:backup/vm/${100 + i}/2026-11-29T07:00:00Z`,
        notes: 'x'.repeat(20),
      }))
      stub.handler = () => ({ body: { data } })
      const got = await clientFor().get(
        '/nodes/pve1/storage/pbs/content',
        undefined,
        undefined,
        undefined,
        each,
      )
      expect(got).toEqual(data.filter((e) => e.vmid % 2 === 1).map((e) => e.volid))
    }
    // An answer that is not a list is returned as it came.
    stub.handler = () => ({ body: { data: { version: '8.4.14' } } })
    expect(await clientFor().get('/version', undefined, undefined, undefined, each)).toEqual({
      version: '8.4.14',
    })
  })

  it('encodes query parameters', async () => {
    await clientFor().get('/cluster/resources', { type: 'vm' })
    expect(stub.requests[0]?.path).toBe('/api2/json/cluster/resources?type=vm')
  })

  it('maps 401 to PVE_AUTH_REJECTED without leaking the secret', async () => {
    stub.handler = () => ({ status: 401, reason: 'authentication failure' })
    const err = await errorOf(clientFor().get('/version'))
    expect(err.code).toBe('PVE_AUTH_REJECTED')
    expect(JSON.stringify(err.params) + err.userMessage).not.toContain(TOKEN.secret)
  })

  it('maps 403 to PVE_FORBIDDEN with the reason phrase', async () => {
    stub.handler = () => ({
      status: 403,
      reason: 'Permission check failed (/nodes/pve1, Sys.Audit)',
    })
    const err = await errorOf(clientFor().get('/nodes/pve1/status'))
    expect(err.code).toBe('PVE_FORBIDDEN')
    expect(err.userMessage).toContain('Permission check failed (/nodes/pve1, Sys.Audit)')
  })

  it('maps the 595 proxy failure to PVE_UNREACHABLE, not to an auth error', async () => {
    stub.handler = () => ({ status: 595, reason: 'Connection refused' })
    const err = await errorOf(clientFor().get('/nodes/pve3/status'))
    expect(err.code).toBe('PVE_UNREACHABLE')
    expect(err.userMessage).toContain('Connection refused')
  })

  it('maps other statuses to PVE_HTTP with status and reason', async () => {
    stub.handler = () => ({ status: 500, reason: 'QEMU guest agent is not running' })
    const err = await errorOf(clientFor().get('/nodes/pve1/qemu/100/agent/get-osinfo'))
    expect(err.code).toBe('PVE_HTTP')
    expect(err.params).toMatchObject({ status: 500, reason: 'QEMU guest agent is not running' })
  })

  it('maps a body that is not JSON to PVE_BAD_RESPONSE', async () => {
    stub.handler = () => ({ body: '<html>proxy</html>' })
    expect((await errorOf(clientFor().get('/version'))).code).toBe('PVE_BAD_RESPONSE')
  })

  it('maps a JSON body without data to PVE_BAD_RESPONSE', async () => {
    stub.handler = () => ({ body: { result: 1 } })
    expect((await errorOf(clientFor().get('/version'))).code).toBe('PVE_BAD_RESPONSE')
  })

  it('parses a large answer in slices to what JSON.parse gives', async () => {
    // Over the sliced threshold (512 KiB): the path /cluster/resources takes at 100k guests.
    const data = Array.from({ length: 8_000 }, (_, i) => ({
      id: `qemu/${100 + i}`,
      name: `web-${i} "quoted" [x], {y}`,
      tags: 'a;b',
      cpu: i / 8_000,
    }))
    const text = JSON.stringify({ data })
    expect(text.length).toBeGreaterThan(512 * 1024)
    stub.handler = () => ({ body: text })
    expect(await clientFor().get('/cluster/resources')).toStrictEqual(JSON.parse(text).data)
  })

  it('maps a large body that is cut short or has no data to PVE_BAD_RESPONSE as before', async () => {
    const text = JSON.stringify({ data: Array.from({ length: 40_000 }, (_, i) => ({ vmid: i })) })
    stub.handler = () => ({ body: text.slice(0, text.length - 3) })
    const cut = await errorOf(clientFor().get('/cluster/resources'))
    expect(cut.code).toBe('PVE_BAD_RESPONSE')
    expect(cut.params.reason).toBe('body is not JSON')
    stub.handler = () => ({ body: text.replace('{"data":', '{"list":') })
    const missing = await errorOf(clientFor().get('/cluster/resources'))
    expect(missing.code).toBe('PVE_BAD_RESPONSE')
    expect(missing.params.reason).toBe('no data field in the body')
  })

  it('refuses an answer larger than maxAnswerBytes without parsing it', async () => {
    stub.handler = () => ({ body: { data: 'x'.repeat(200_000) } })
    const err = await errorOf(clientFor({ maxAnswerBytes: 100_000 }).get('/version'))
    expect(err.code).toBe('PVE_BAD_RESPONSE')
    expect(err.userMessage).toContain('larger than')
  })

  it('maps a refused connection to PVE_UNREACHABLE', async () => {
    const closed = await startStubPve(cert, () => ({}))
    const url = closed.url
    await closed.close()
    const err = await errorOf(clientFor({ host: url }).get('/version'))
    expect(err.code).toBe('PVE_UNREACHABLE')
  })

  it('maps a slow answer to PVE_TIMEOUT', async () => {
    stub.handler = () => ({ body: { data: 1 }, delayMs: 2_000 })
    const err = await errorOf(clientFor({ timeoutMs: 150 }).get('/version'))
    expect(err.code).toBe('PVE_TIMEOUT')
    expect(err.params.ms).toBe(150)
  })

  it("counts a call's own timeout from its sending, not from its wait for a connection", async () => {
    stub.handler = (req) =>
      req.path.includes('/slow')
        ? { body: { data: 'slow' }, delayMs: 600 }
        : { body: { data: 'quick' } }
    const client = clientFor({ maxConcurrency: 1 })
    const slow = client.get('/slow')
    // Queued behind the slow call for longer than its own timeout, then answered at once.
    const queued = client.get('/quick', undefined, undefined, 300)
    await expect(queued).resolves.toBe('quick')
    await expect(slow).resolves.toBe('slow')
    // An answer slower than the call's own timeout times out, with that timeout in the error.
    const err = await errorOf(client.get('/slow', undefined, undefined, 200))
    expect(err.code).toBe('PVE_TIMEOUT')
    expect(err.params.ms).toBe(200)
  })

  it('does not time out an answer for the time our own loop was blocked', async () => {
    // The node answers at once; right after, this process is busy for longer than the deadline
    // (a large parse, a garbage collection), so the answer waits unread when the deadline is due.
    stub.handler = () => {
      setImmediate(() => blockLoop(1_000))
      return { body: { data: { version: '8.4.14' } } }
    }
    const answer = clientFor({ timeoutMs: 300 }).get('/version')
    await expect(answer).resolves.toEqual({ version: '8.4.14' })
  })

  it('accepts the pinned fingerprint in any case and with or without colons', async () => {
    const pin = cert.fingerprint256.replace(/:/g, '').toLowerCase()
    await expect(clientFor({ fingerprint: pin }).get('/version')).resolves.toEqual([])
    await expect(
      clientFor({ fingerprint: cert.fingerprint256, verifySSL: true }).get('/version'),
    ).resolves.toEqual([])
  })

  it('keeps accepting the pinned certificate on every new connection, not just the first', async () => {
    stub.handler = async () => {
      await new Promise((resolve) => setTimeout(resolve, 20))
      return { body: { data: 1 } }
    }
    const client = clientFor({ fingerprint: cert.fingerprint256 })
    await client.get('/version')
    // Parallel calls open further sockets, which TLS session resumption used to break.
    await expect(Promise.all([1, 2, 3, 4].map(() => client.get('/version')))).resolves.toEqual([
      1, 1, 1, 1,
    ])
  })

  it('rejects a wrong fingerprint with PVE_TLS_MISMATCH before any request reaches the server', async () => {
    const wrong = 'AA:'.repeat(31) + 'AA'
    const err = await errorOf(clientFor({ fingerprint: wrong }).get('/version'))
    expect(err.code).toBe('PVE_TLS_MISMATCH')
    expect(err.params.actual).toBe(cert.fingerprint256)
    expect(stub.requests).toHaveLength(0)
  })

  it('rejects a self-signed certificate when verification is on', async () => {
    const err = await errorOf(clientFor({ verifySSL: true }).get('/version'))
    expect(err.code).toBe('PVE_TLS_UNTRUSTED')
    expect(stub.requests).toHaveLength(0)
  })

  it('rejects a host that is not an https URL', () => {
    expect(() =>
      createPveClient({ host: 'http://127.0.0.1:8006', auth: TOKEN, verifySSL: false }),
    ).toThrow(AppError)
  })

  it('logs in with a ticket, sends the cookie and logs in again once on 401', async () => {
    let issued = 0
    let valid = ''
    stub.handler = (req) => {
      if (req.path === '/api2/json/access/ticket') {
        const form = new URLSearchParams(req.body)
        if (form.get('username') !== 'monitor@pve' || form.get('password') !== 'pw')
          return { status: 401 }
        valid = `PVE:monitor@pve:${++issued}::sig`
        return {
          body: { data: { ticket: valid, CSRFPreventionToken: 'x', username: 'monitor@pve' } },
        }
      }
      return req.headers.cookie === `PVEAuthCookie=${valid}`
        ? { body: { data: 'ok' } }
        : { status: 401 }
    }
    const client = clientFor({
      auth: { kind: 'password', username: 'monitor@pve', password: 'pw' },
    })
    expect(await client.get('/version')).toBe('ok')
    expect(await client.get('/version')).toBe('ok')
    expect(issued).toBe(1)
    const login = stub.requests[0]!
    expect(login.method).toBe('POST')
    expect(login.headers['content-type']).toBe('application/x-www-form-urlencoded')

    valid = 'revoked'
    expect(await client.get('/version')).toBe('ok')
    expect(issued).toBe(2)
  })

  it('renews the ticket before it is two hours old', async () => {
    let clock = 0
    let issued = 0
    stub.handler = (req) =>
      req.path === '/api2/json/access/ticket'
        ? { body: { data: { ticket: `PVE:t${++issued}` } } }
        : { body: { data: req.headers.cookie } }
    const client = clientFor({
      auth: { kind: 'password', username: 'u@pam', password: 'p' },
      now: () => clock,
    })
    expect(await client.get('/version')).toBe('PVEAuthCookie=PVE:t1')
    clock = 115 * 60_000
    expect(await client.get('/version')).toBe('PVEAuthCookie=PVE:t2')
  })

  it('reports a rejected password as PVE_AUTH_REJECTED', async () => {
    stub.handler = () => ({ status: 401, reason: 'authentication failure' })
    const client = clientFor({
      auth: { kind: 'password', username: 'u@pam', password: 'secret-pw' },
    })
    const err = await errorOf(client.get('/version'))
    expect(err.code).toBe('PVE_AUTH_REJECTED')
    expect(err.userMessage).not.toContain('secret-pw')
  })

  it('never runs more requests at once than maxConcurrency', async () => {
    let inFlight = 0
    let peak = 0
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    // The stub holds every request until the gate opens: two must be held at once, never more.
    stub.handler = async () => {
      inFlight++
      peak = Math.max(peak, inFlight)
      await gate
      inFlight--
      return { body: { data: 1 } }
    }
    const client = clientFor({ maxConcurrency: 2 })
    const all = Promise.all(Array.from({ length: 6 }, () => client.get('/version')))
    await vi.waitFor(() => expect(inFlight).toBe(2))
    open()
    await all
    expect(peak).toBe(2)
  })

  it('reports every call through onCall with its outcome', async () => {
    const calls: Array<{ path: string; ok: boolean }> = []
    stub.handler = (req) =>
      req.path.endsWith('/bad') ? { status: 500, reason: 'boom' } : { body: { data: 1 } }
    const client = clientFor({
      onCall: ({ path, ok, ms }) => (
        expect(ms).toBeGreaterThanOrEqual(0),
        calls.push({ path, ok })
      ),
    })
    await client.get('/good')
    await client.get('/bad').catch(() => undefined)
    expect(calls).toEqual([
      { path: '/good', ok: true },
      { path: '/bad', ok: false },
    ])
  })

  it('lets the caller impose a shorter budget through an abort reason', async () => {
    stub.handler = () => ({ body: { data: 1 }, delayMs: 2_000 })
    const controller = new AbortController()
    setTimeout(() => controller.abort(new AppError('PVE_TIMEOUT', { host: 'h', ms: 50 })), 50)
    const err = await errorOf(clientFor().get('/version', undefined, controller.signal))
    expect(err.code).toBe('PVE_TIMEOUT')
    expect(err.params.ms).toBe(50)
  })
})
