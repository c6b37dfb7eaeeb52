import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { ServerConfig } from '../../../../src/server/config.ts'
import {
  createProxyTrust,
  readPublicUrl,
  readTrustedProxies,
} from '../../../../src/server/auth/proxy-trust.ts'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from './auth-helpers.ts'

// Real HTTP and WebSocket on 127.0.0.1. A "proxy" here is the test client itself sending the
// headers a reverse proxy adds; its peer address decides whether it is trusted. A second loopback
// address (127.0.0.2) plays the untrusted peer.
let server: AuthTestServer
let creds: Credentials
afterEach(async () => {
  await server.close()
})

async function start(overrides: Partial<ServerConfig> = {}) {
  server = await startAuthServer(overrides)
  creds = await quickSetup(server)
}

const PUBLIC = 'https://pulse.example.com'

/** Open /ws from `localAddress` with a session cookie: 101, or the HTTP status of a refusal. */
function open(headers: Record<string, string>, localAddress = '127.0.0.1'): Promise<number> {
  const cookie = `pulse_session=${creds.cookies.pulse_session}; pulse_csrf=${creds.cookies.pulse_csrf}`
  const ws = new WebSocket(server.base.replace('http', 'ws') + '/ws', {
    headers: { cookie, ...headers },
    localAddress,
  })
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0)
      ws.terminate()
    })
    ws.once('open', () => {
      resolve(101)
      ws.close()
    })
    ws.once('error', reject)
  })
}

describe('/ws origin behind a reverse proxy', () => {
  it('accepts the forwarded host of a loopback proxy by default', async () => {
    await start()
    expect(await open({ origin: PUBLIC, 'x-forwarded-host': 'pulse.example.com' })).toBe(101)
    // Default ports compare equal, and the standard Forwarded header counts too.
    expect(await open({ origin: PUBLIC, 'x-forwarded-host': 'pulse.example.com:443' })).toBe(101)
    expect(await open({ origin: PUBLIC, forwarded: 'for=10.0.0.9;host=pulse.example.com' })).toBe(
      101,
    )
  })

  it('refuses a foreign origin even from a trusted proxy', async () => {
    await start()
    const evil = { origin: 'https://evil.example.net', 'x-forwarded-host': 'pulse.example.com' }
    expect(await open(evil)).toBe(403)
    expect(await open({ origin: 'https://evil.example.net' })).toBe(403)
  })

  it('ignores the forwarded host of a peer not in TRUSTED_PROXIES', async () => {
    await start({ trustedProxies: ['127.0.0.1/32'] })
    const headers = { origin: PUBLIC, 'x-forwarded-host': 'pulse.example.com' }
    expect(await open(headers, '127.0.0.2')).toBe(403)
    expect(await open(headers, '127.0.0.1')).toBe(101)
  })

  it('trusts no proxy with TRUSTED_PROXIES=none', async () => {
    await start({ trustedProxies: readTrustedProxies('none') })
    expect(await open({ origin: PUBLIC, 'x-forwarded-host': 'pulse.example.com' })).toBe(403)
  })

  it('accepts the PULSE_PUBLIC_URL origin from any peer, and still refuses others', async () => {
    await start({ trustedProxies: [], publicUrl: readPublicUrl(`${PUBLIC}/`) })
    expect(await open({ origin: PUBLIC }, '127.0.0.2')).toBe(101)
    expect(await open({ origin: 'https://other.example.com' }, '127.0.0.2')).toBe(403)
  })
})

describe('TRUSTED_PROXIES and PULSE_PUBLIC_URL', () => {
  it('defaults to loopback and reads IPs and CIDRs of both families', () => {
    expect(readTrustedProxies(undefined)).toEqual(['127.0.0.0/8', '::1/128'])
    const trust = createProxyTrust(readTrustedProxies('10.0.0.0/8, 192.168.1.5, fd00::/8'))
    expect(trust('10.20.30.40')).toBe(true)
    expect(trust('::ffff:10.1.1.1')).toBe(true)
    expect(trust('192.168.1.5')).toBe(true)
    expect(trust('192.168.1.6')).toBe(false)
    expect(trust('fd12::1')).toBe(true)
    expect(trust('127.0.0.1')).toBe(false)
    expect(trust(undefined)).toBe(false)
  })

  it('names the variable on a bad value', () => {
    expect(() => readTrustedProxies('10.0.0.0/40')).toThrow(/TRUSTED_PROXIES/)
    expect(() => readTrustedProxies('proxy.lan')).toThrow(/TRUSTED_PROXIES/)
    expect(() => readPublicUrl('pulse.example.com')).toThrow(/PULSE_PUBLIC_URL/)
    expect(() => readPublicUrl('ftp://pulse.example.com')).toThrow(/PULSE_PUBLIC_URL/)
    expect(readPublicUrl('https://pulse.example.com/app/')).toBe('https://pulse.example.com')
  })
})
