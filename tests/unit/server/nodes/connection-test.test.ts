// Connection tests over real HTTP against the real app, the PVE simulator (a cluster and a
// standalone host) and a PBS-like server, all on 127.0.0.1. A test never changes what is stored.
import https from 'node:https'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { testConnection } from '../../../../src/server/nodes/connection-test.ts'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import { loadCertificate } from '../../../../src/server/sim/tls.ts'
import type { AuthTestServer } from '../auth/auth-helpers.ts'
import { startOpenServer, startPve } from './node-helpers.ts'
import { startPbsLike, type PbsLike } from './pbs-like.ts'

const WRONG_FINGERPRINT = Array.from({ length: 32 }, () => 'AB').join(':')

let clusterSim: Simulator
let standaloneSim: Simulator
let cluster: SimCluster
let standalone: SimCluster
let pbs: PbsLike
let server: AuthTestServer
beforeAll(async () => {
  ;({ sim: clusterSim, cluster } = await startPve(3))
  ;({ sim: standaloneSim, cluster: standalone } = await startPve(1))
  pbs = await startPbsLike()
})
afterAll(async () => {
  await Promise.all([clusterSim.stop(), standaloneSim.stop(), pbs.stop()])
})
beforeEach(async () => {
  server = await startOpenServer()
})
afterEach(async () => {
  await server.close()
})

const pveNode = (c: SimCluster) => ({
  type: 'pve',
  host: c.url,
  tokenName: c.tokenId,
  tokenValue: c.tokenSecret,
  fingerprint: c.fingerprint,
})
const pbsNode = () => ({
  type: 'pbs',
  host: pbs.url,
  tokenName: pbs.tokenId,
  tokenValue: pbs.tokenSecret,
  fingerprint: pbs.fingerprint,
})
const testPayload = (body: unknown) =>
  server.call('POST', '/api/config/nodes/test-connection', { body })
const hostOf = (url: string) => new URL(url).host

describe('POST /api/config/nodes/test-connection', () => {
  it('reports a cluster with its name and member count', async () => {
    const res = await testPayload(pveNode(cluster))
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      status: 'success',
      message: 'Connection successful',
      isCluster: true,
      clusterName: cluster.name,
      nodeCount: 3,
    })
    expect(typeof res.json.version).toBe('string')
  })

  it('reports a standalone host as no cluster, one node', async () => {
    const res = await testPayload(pveNode(standalone))
    expect(res.json).toMatchObject({ status: 'success', isCluster: false, nodeCount: 1 })
    expect(res.json.clusterName).toBeUndefined()
  })

  it('connects without verification when verifySSL is off and no fingerprint is pinned', async () => {
    const res = await testPayload({ ...pveNode(cluster), fingerprint: '', verifySSL: false })
    expect(res.json.status).toBe('success')
  })

  it('tests a PBS: datastore count', async () => {
    const res = await testPayload(pbsNode())
    expect(res.status).toBe(200)
    expect(res.json).toEqual({
      status: 'success',
      message: 'Connection successful',
      datastoreCount: 2,
      version: '3.3',
    })
  })

  it.each([
    [
      'a wrong token',
      () => ({ ...pveNode(cluster), tokenValue: '00000000-0000-4000-8000-000000000000' }),
      502,
      'PVE_AUTH_REJECTED',
      () => `Proxmox rejected the credentials for ${hostOf(cluster.url)}.`,
    ],
    [
      'a wrong password',
      () => ({
        type: 'pve',
        host: cluster.url,
        user: 'root',
        password: 'wrong',
        fingerprint: cluster.fingerprint,
      }),
      502,
      'PVE_AUTH_REJECTED',
      () => `Proxmox rejected the credentials for ${hostOf(cluster.url)}.`,
    ],
    [
      'a wrong PBS token',
      () => ({ ...pbsNode(), tokenValue: 'not-the-secret' }),
      502,
      'PVE_AUTH_REJECTED',
      () => `Proxmox rejected the credentials for ${hostOf(pbs.url)}.`,
    ],
    [
      'a port where nothing listens',
      () => ({ ...pveNode(cluster), host: '127.0.0.1:9' }),
      502,
      'PVE_UNREACHABLE',
      () => 'Cannot reach 127.0.0.1:9: ECONNREFUSED.',
    ],
    [
      'a pinned fingerprint that does not match',
      () => ({ ...pveNode(cluster), fingerprint: WRONG_FINGERPRINT }),
      502,
      'PVE_TLS_MISMATCH',
      () =>
        `TLS fingerprint of ${hostOf(cluster.url)} does not match the pinned one (got ${cluster.fingerprint}).`,
    ],
    [
      'a self-signed certificate with verification on',
      () => ({ ...pveNode(cluster), fingerprint: '' }),
      502,
      'PVE_TLS_UNTRUSTED',
      () =>
        `TLS certificate of ${hostOf(cluster.url)} is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT); pin its fingerprint.`,
    ],
    [
      'a PBS over http',
      () => ({ ...pbsNode(), host: pbs.url.replace('https', 'http') }),
      400,
      'FIELD_INVALID',
      () => 'host: PBS requires HTTPS.',
    ],
  ])('answers %s with the specific error', async (_what, payload, status, code, message) => {
    const res = await testPayload(payload())
    expect(res.status).toBe(status)
    expect(res.json).toEqual({ code, message: message() })
  })

  it('reuses the stored secret of `id` when the payload leaves it blank', async () => {
    const added = await server.call('POST', '/api/config/nodes', {
      body: { ...pveNode(cluster), name: 'alpha' },
    })
    const id = added.json.id as string
    const blank = { ...pveNode(cluster), tokenValue: '' }
    expect((await testPayload(blank)).json.message).toBe(
      'tokenValue: Token ID and token value are required.',
    )
    const res = await testPayload({ ...blank, id })
    expect(res.json).toMatchObject({ status: 'success', isCluster: true })
    // A typed secret wins over the stored one.
    const typed = await testPayload({ ...blank, id, tokenValue: 'typed-but-wrong' })
    expect(typed.json.code).toBe('PVE_AUTH_REJECTED')
  })
})

describe('POST /api/config/nodes/{id}/test', () => {
  it('tests the stored node and leaves the stored configuration unchanged', async () => {
    const good = await server.call('POST', '/api/config/nodes', {
      body: { ...pveNode(cluster), name: 'good' },
    })
    const bad = await server.call('POST', '/api/config/nodes', {
      body: { ...pveNode(cluster), name: 'pinned-wrong', fingerprint: WRONG_FINGERPRINT },
    })
    const repo = () => server.ctx.app.db.prepare('SELECT * FROM nodes ORDER BY id').all()
    const before = repo()

    const ok = await server.call('POST', `/api/config/nodes/${good.json.id}/test`)
    expect(ok.json).toMatchObject({
      status: 'success',
      message: 'Connection successful',
      isCluster: true,
      clusterName: cluster.name,
      nodeCount: 3,
    })
    const failed = await server.call('POST', `/api/config/nodes/${bad.json.id}/test`)
    expect(failed.json.code).toBe('PVE_TLS_MISMATCH')
    await testPayload({ ...pveNode(cluster), name: 'never-stored' })

    expect(repo()).toEqual(before)
  })
})

describe('testConnection', () => {
  it('turns a server that accepts but never answers into PVE_TIMEOUT', async () => {
    // A TCP listener that never speaks TLS: stands in for a hung host.
    const sockets: net.Socket[] = []
    const silent = net.createServer((socket) => void sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as AddressInfo).port
    try {
      const result = testConnection(
        {
          type: 'pve',
          host: `https://127.0.0.1:${port}`,
          auth: { kind: 'token', tokenId: 'a@pam!b', secret: 'c' },
          verifySSL: false,
        },
        { timeoutMs: 200 },
      )
      await expect(result).rejects.toMatchObject({
        code: 'PVE_TIMEOUT',
        message: `Request to 127.0.0.1:${port} timed out after 200 ms.`,
      })
    } finally {
      for (const socket of sockets) socket.destroy()
      silent.close()
    }
  })

  it('falls back to /nodes when /cluster/status is forbidden', async () => {
    // The simulator has no permission model: this small server plays a token without Sys.Audit.
    const certificate = await loadCertificate()
    const limited = https.createServer(
      { key: certificate.key, cert: certificate.cert },
      (req, res) => {
        const reply = (status: number, reason: string, body: unknown) => {
          res.writeHead(status, reason, { 'content-type': 'application/json;charset=UTF-8' })
          res.end(JSON.stringify(body))
        }
        if (req.url === '/api2/json/cluster/status') {
          return reply(403, 'Permission check failed (/, Sys.Audit)', { data: null })
        }
        if (req.url === '/api2/json/nodes') {
          return reply(200, 'OK', { data: [{ node: 'pve-a1' }, { node: 'pve-a2' }] })
        }
        if (req.url === '/api2/json/version')
          return reply(200, 'OK', { data: { version: '9.0.3' } })
        reply(501, 'not implemented', { data: null })
      },
    )
    await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve))
    const port = (limited.address() as AddressInfo).port
    try {
      const result = await testConnection({
        type: 'pve',
        host: `https://127.0.0.1:${port}`,
        auth: { kind: 'token', tokenId: 'a@pam!b', secret: 'c' },
        verifySSL: false,
      })
      expect(result).toEqual({
        status: 'success',
        message: 'Connection successful',
        isCluster: true,
        nodeCount: 2,
        version: '9.0.3',
      })
    } finally {
      limited.close()
      limited.closeAllConnections()
    }
  })
})
