// The setup script: shellcheck-clean, the exact Proxmox commands it runs (against stub tools) for
// PVE 8, PVE 9 and PBS, twice in a row; and the one-time URL over real HTTP with auth on.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readProxyAuthConfig } from '../../../../src/server/auth/proxy-auth.ts'
import { buildSetupScript, shellQuote } from '../../../../src/server/setup/setup-script.ts'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from '../auth/auth-helpers.ts'
import { makeTempDir } from '../temp-dir.ts'
import { createStubHost } from './setup-stubs.ts'

const SHELLCHECK = spawnSync('sh', ['-c', 'command -v shellcheck'], {
  encoding: 'utf8',
}).stdout.trim()
if (!SHELLCHECK) {
  console.warn(
    'setup-script.test: shellcheck is not installed (apt-get install shellcheck): skipped',
  )
}

const script = (type: 'pve' | 'pbs', backupPerms: boolean) =>
  buildSetupScript({
    type,
    host: 'https://pve1.example.com:8006',
    pulseUrl: 'http://127.0.0.1:7655',
    backupPerms,
  })

const OPTIONS = {
  type: 'pve',
  host: 'https://pve1.example.com:8006',
  pulseUrl: 'http://127.0.0.1:7655',
  backupPerms: false,
} as const

let temp: { dir: string; cleanup: () => void }
beforeEach(() => {
  temp = makeTempDir('pulse-setup-')
})
afterEach(() => {
  temp.cleanup()
})

describe('setup script text', () => {
  it.skipIf(!SHELLCHECK)('passes shellcheck for every variant (skipped without the binary)', () => {
    for (const [type, perms] of [
      ['pve', true],
      ['pve', false],
      ['pbs', false],
    ] as const) {
      const file = path.join(temp.dir, `${type}-${perms}.sh`)
      fs.writeFileSync(file, script(type, perms))
      const result = spawnSync(SHELLCHECK, ['--shell=bash', '--severity=style', file], {
        encoding: 'utf8',
      })
      expect(result.stdout + result.stderr, `${type} backupPerms=${perms}`).toBe('')
      expect(result.status).toBe(0)
    }
  })

  it.skipIf(!SHELLCHECK)('passes shellcheck with a registration code too', () => {
    const file = path.join(temp.dir, 'registering.sh')
    for (const type of ['pve', 'pbs'] as const) {
      fs.writeFileSync(
        file,
        buildSetupScript({ ...OPTIONS, type, registrationCode: 'Zm9vYmFyYmF6cXV4cXV1eA' }),
      )
      const result = spawnSync(SHELLCHECK, ['--shell=bash', '--severity=style', file], {
        encoding: 'utf8',
      })
      expect(result.stdout + result.stderr, type).toBe('')
    }
  })

  it('posts the token to Pulse with the quoted code, the secret on stdin only', () => {
    const text = buildSetupScript({ ...OPTIONS, registrationCode: `c0de'$(id)` })
    expect(text).toContain(`REGISTER_CODE='c0de'\\''$(id)'`)
    expect(text).toContain('"$PULSE_URL/api/auto-register"')
    expect(text).toContain('--data-binary @-')
    // The secret reaches curl through the body on stdin, never as an argument.
    const curl = text.slice(text.indexOf('curl -sS'), text.indexOf('/api/auto-register'))
    expect(curl).not.toContain('$secret')
    expect(text).toContain('/etc/pve/local/pve-ssl.pem')
    const pbs = buildSetupScript({ ...OPTIONS, type: 'pbs', registrationCode: 'x' })
    expect(pbs).toContain('/etc/proxmox-backup/proxy.pem')
    expect(pbs).toContain('NODE_TYPE=pbs')
  })

  it('without a code the script registers nothing and only prints the token', () => {
    expect(buildSetupScript(OPTIONS)).toContain(`REGISTER_CODE=''`)
  })

  it('quotes what the URL carries so it cannot break out of the string', () => {
    expect(shellQuote(`x'; rm -rf /; echo '`)).toBe(`'x'\\''; rm -rf /; echo '\\'''`)
    const text = buildSetupScript({
      type: 'pve',
      host: "https://a.example.com'\n$(touch /tmp/pwned)",
      pulseUrl: 'http://127.0.0.1:7655',
      backupPerms: false,
    })
    expect(text).toContain(`NODE_HOST='https://a.example.com'\\''$(touch /tmp/pwned)'`)
  })
})

const PVE_USER = 'pulse-monitor@pam'
const PVE_TOKEN = 'pulse-monitor@pam!pulse-token'
const json = '--output-format'

describe('running the PVE script (stub pveum and pveversion)', () => {
  const firstRun = (priv: string, storage: boolean) => [
    ['pveversion'],
    ['pveum', 'user', 'list', json, 'json'],
    ['pveum', 'user', 'add', PVE_USER, '--comment', 'Pulse monitoring'],
    ['pveum', 'role', 'list', json, 'json'],
    ['pveum', 'role', 'add', 'PulseMonitor', '--privs', priv],
    ['pveum', 'acl', 'modify', '/', '--users', PVE_USER, '--roles', 'PVEAuditor,PulseMonitor'],
    ...(storage
      ? [
          [
            'pveum',
            'acl',
            'modify',
            '/storage',
            '--users',
            PVE_USER,
            '--roles',
            'PVEDatastoreAdmin',
          ],
        ]
      : []),
    ['pveum', 'user', 'token', 'list', PVE_USER, json, 'json'],
    [
      'pveum',
      'user',
      'token',
      'add',
      PVE_USER,
      'pulse-token',
      '--privsep',
      '1',
      '--comment',
      'Pulse monitoring',
      json,
      'json',
    ],
    ['pveum', 'acl', 'modify', '/', '--tokens', PVE_TOKEN, '--roles', 'PVEAuditor,PulseMonitor'],
    ...(storage
      ? [
          [
            'pveum',
            'acl',
            'modify',
            '/storage',
            '--tokens',
            PVE_TOKEN,
            '--roles',
            'PVEDatastoreAdmin',
          ],
        ]
      : []),
  ]
  const secondRun = (priv: string, storage: boolean) => {
    const calls = firstRun(priv, storage).filter((c) => !(c[1] === 'user' && c[2] === 'add'))
    const role = calls.findIndex((c) => c[1] === 'role' && c[2] === 'add')
    calls[role] = ['pveum', 'role', 'modify', 'PulseMonitor', '--privs', priv]
    const add = calls.findIndex((c) => c[2] === 'token' && c[3] === 'add')
    calls.splice(add, 0, ['pveum', 'user', 'token', 'remove', PVE_USER, 'pulse-token'])
    return calls
  }

  it.each([
    [8, 'VM.Monitor', true],
    [9, 'VM.GuestAgent.Audit', false],
  ])(
    'PVE %i: grants %s, storage rights %s; a second run replaces the token',
    (major, priv, storage) => {
      const host = createStubHost(temp.dir, major)
      const first = host.run(script('pve', storage))
      expect(first.stderr).toBe('')
      expect(first.status).toBe(0)
      expect(host.takeCalls()).toEqual(firstRun(priv, storage))
      expect(first.stdout).toContain(`Token ID:     ${PVE_TOKEN}`)
      expect(first.stdout).toContain('Token secret: 00000001-aaaa-4bbb-8ccc-dddddddddddd')

      const second = host.run(script('pve', storage))
      expect(second.stderr).toBe('')
      expect(second.status).toBe(0)
      expect(host.takeCalls()).toEqual(secondRun(priv, storage))
      expect(second.stdout).toContain('Token secret: 00000002-aaaa-4bbb-8ccc-dddddddddddd')
    },
  )

  it('stops with an error when pveversion says nothing usable', () => {
    const host = createStubHost(temp.dir, 8)
    fs.writeFileSync(path.join(temp.dir, 'bin', 'pveversion'), '#!/bin/sh\necho garbage\n', {
      mode: 0o755,
    })
    const result = host.run(script('pve', false))
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('cannot read the Proxmox VE version')
    expect(host.takeCalls()).toEqual([])
  })
})

describe('running the PBS script (stub proxmox-backup-manager)', () => {
  const PBM = 'proxmox-backup-manager'
  const USER = 'pulse-monitor@pbs'
  const TOKEN = 'pulse-monitor@pbs!pulse-token'
  const tail = [
    [PBM, 'user', 'generate-token', USER, 'pulse-token'],
    [PBM, 'acl', 'update', '/', 'Audit', '--auth-id', USER],
    [PBM, 'acl', 'update', '/', 'Audit', '--auth-id', TOKEN],
  ]

  it('creates user, token and Audit ACLs, and replaces the token on a second run', () => {
    const host = createStubHost(temp.dir, 8)
    const first = host.run(script('pbs', false))
    expect(first.stderr).toBe('')
    expect(first.status).toBe(0)
    expect(host.takeCalls()).toEqual([
      [PBM, 'user', 'list', json, 'json'],
      [PBM, 'user', 'create', USER, '--comment', 'Pulse monitoring'],
      [PBM, 'user', 'list-tokens', USER, json, 'json'],
      ...tail,
    ])
    expect(first.stdout).toContain(`Token ID:     ${TOKEN}`)
    expect(first.stdout).toContain('Token secret: pbs-secret-1')

    const second = host.run(script('pbs', false))
    expect(second.status).toBe(0)
    expect(host.takeCalls()).toEqual([
      [PBM, 'user', 'list', json, 'json'],
      [PBM, 'user', 'list-tokens', USER, json, 'json'],
      [PBM, 'user', 'delete-token', USER, 'pulse-token'],
      ...tail,
    ])
    expect(second.stdout).toContain('Token secret: pbs-secret-2')
  })
})

describe('setup-script routes (authentication on)', () => {
  let server: AuthTestServer
  let creds: Credentials
  let clock = Date.UTC(2025, 5, 3, 14, 0, 0)
  beforeEach(async () => {
    clock = Date.UTC(2025, 5, 3, 14, 0, 0)
    server = await startAuthServer({}, { now: () => clock })
    creds = await quickSetup(server)
  })
  afterEach(async () => {
    await server.close()
  })

  const requestUrl = async (body: object) => {
    const res = await server.call('POST', '/api/setup-script-url', { body, token: creds.apiToken })
    expect(res.status).toBe(200)
    return res.json as { url: string; command: string; expires: number }
  }
  const fetchPath = (url: string) => server.call('GET', url.slice(server.base.length))

  it('hands out a one-time URL and a curl command for it', async () => {
    const answer = await requestUrl({ type: 'pve', host: '127.0.0.1', backupPerms: true })
    const url = new URL(answer.url)
    expect(answer.url.startsWith(`${server.base}/api/setup-script?`)).toBe(true)
    expect(Object.fromEntries(url.searchParams)).toEqual({
      type: 'pve',
      host: 'https://127.0.0.1:8006',
      pulse_url: server.base,
      backup_perms: 'true',
      setup_token: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    })
    expect(answer.command).toBe(`curl -fsSL '${answer.url}' | bash`)
    expect(answer.expires).toBe(Math.floor(clock / 1000) + 300)
  })

  it('serves the script once to a caller without credentials, then refuses the code', async () => {
    const { url } = await requestUrl({ type: 'pve', host: '127.0.0.1', backupPerms: false })
    const first = await fetchPath(url)
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('text/x-shellscript; charset=utf-8')
    expect(first.text).toContain("NODE_HOST='https://127.0.0.1:8006'")
    expect(first.text).toContain('BACKUP_PERMS=false')
    const again = await fetchPath(url)
    expect(again.status).toBe(401)
    expect(again.json.code).toBe('AUTH_REQUIRED')

    // What `curl | bash` would run, against the stub tools. Nothing answers on 127.0.0.1:8006, so
    // the registration's connection test fails and the script prints the token instead.
    const host = createStubHost(temp.dir, 8)
    const run = await host.runAsync(first.text)
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('Automatic registration with Pulse failed: Cannot reach')
    expect(run.stdout).toContain(`Token ID:     ${PVE_TOKEN}`)
  })

  it('refuses an expired code, a made-up code and no code', async () => {
    const pbsUrl = (await requestUrl({ type: 'pbs', host: '127.0.0.1' })).url
    expect((await fetchPath(pbsUrl)).status).toBe(200)

    const expiring = (await requestUrl({ type: 'pve', host: '127.0.0.1' })).url
    clock += 5 * 60_000
    expect((await fetchPath(expiring)).status).toBe(401)

    expect(
      (await server.call('GET', '/api/setup-script?type=pve&setup_token=made-up')).status,
    ).toBe(401)
    expect((await server.call('GET', '/api/setup-script?type=pve')).status).toBe(401)
  })

  it.each([
    ['type', 'pbs', 'pve'],
    ['host', 'pve-b.lan', 'https://pve-a.lan:8006'],
    ['pulse_url', 'http://127.0.0.1:9', undefined],
    ['backup_perms', 'true', 'false'],
    ['host', '', 'https://pve-a.lan:8006'],
  ])(
    'refuses the URL with %s changed to %j (403 naming it) and still serves it as issued',
    async (field, value, expected) => {
      const { url } = await requestUrl({ type: 'pve', host: 'pve-a.lan', backupPerms: false })
      const changed = new URL(url)
      changed.searchParams.set(field, value)
      const refused = await fetchPath(changed.toString())
      expect(refused.status).toBe(403)
      expect(refused.json).toEqual({
        code: 'SETUP_URL_MISMATCH',
        message: `This setup URL was issued for ${field} ${expected ?? server.base}, not ${
          field === 'host' && value ? `https://${value}:8006` : value || '(none)'
        }.`,
      })
      const served = await fetchPath(url)
      expect(served.status).toBe(200)
      expect(served.text).toContain("NODE_HOST='https://pve-a.lan:8006'")
    },
  )

  it('serves an authenticated caller without a code, and needs a valid type', async () => {
    const ok = await server.call('GET', '/api/setup-script?type=pbs&host=h&pulse_url=p', {
      token: creds.apiToken,
    })
    expect(ok.status).toBe(200)
    expect(ok.text).toContain('proxmox-backup-manager')
    const bad = await server.call('GET', '/api/setup-script?type=pmg', { token: creds.apiToken })
    expect(bad.status).toBe(400)
    expect(bad.json).toEqual({ code: 'FIELD_INVALID', message: 'type: must be "pve" or "pbs".' })
  })

  it('validates the URL request and needs an authenticated admin for it', async () => {
    const noHost = await server.call('POST', '/api/setup-script-url', {
      body: { type: 'pve' },
      token: creds.apiToken,
    })
    expect(noHost.json).toEqual({ code: 'FIELD_INVALID', message: 'host: is required.' })
    const httpPbs = await server.call('POST', '/api/setup-script-url', {
      body: { type: 'pbs', host: 'http://127.0.0.1' },
      token: creds.apiToken,
    })
    expect(httpPbs.json.message).toBe('host: PBS requires HTTPS.')
    const anonymous = await server.call('POST', '/api/setup-script-url', {
      body: { type: 'pve', host: '127.0.0.1' },
    })
    expect(anonymous.status).toBe(401)
  })
})

describe('setup script for a signed-in user who is not an admin', () => {
  it('refuses a script without a one-time code: its registration code would add a node', async () => {
    const secret = 'proxy-shared-secret-8f1d2c'
    const server = await startAuthServer({
      proxyAuth: readProxyAuthConfig({ PROXY_AUTH_SECRET: secret })!,
    })
    try {
      const viewer = { 'x-proxy-secret': secret, 'x-remote-user': 'alice' }
      const res = await server.call(
        'GET',
        '/api/setup-script?type=pve&host=127.0.0.1&pulse_url=http%3A%2F%2F127.0.0.1%3A9',
        { headers: viewer },
      )
      expect(res.status).toBe(403)
      expect(res.json.code).toBe('ADMIN_REQUIRED')
      expect(res.text).not.toContain('REGISTER_CODE')
    } finally {
      await server.close()
    }
  })
})
