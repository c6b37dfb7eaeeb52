import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../../src/shared/model/errors.ts'
import {
  createFailoverState,
  describeFailures,
  isFailoverError,
  learnLocalMember,
  memberUrl,
  planAttempts,
  pollWithFailover,
  recordAnswer,
  shouldProbeHome,
  toEndpointInfo,
} from '../../../../src/server/collect/failover.ts'
import { toClusterInfo } from '../../../../src/server/collect/pve-cluster.ts'
import {
  createPoller,
  type CollectedState,
  type MonitoredEndpoint,
  type Poller,
} from '../../../../src/server/collect/poller.ts'
import { readFixture } from './fixtures.ts'
import { createTestCert, type TestCert } from './stub-pve.ts'

const CONFIGURED = 'https://pve1.example.com:8006'
const unreachable = new AppError('PVE_UNREACHABLE', { host: 'h', reason: 'ECONNREFUSED' })

// The recorded 4-node cluster; its addresses are only read here, never contacted.
const fixtureCluster = toClusterInfo(readFixture('cluster-status__go-proxmox.json'))
const ipOf = (name: string): string => fixtureCluster.members.find((m) => m.name === name)!.ip!

describe('failover decisions', () => {
  it('builds member URLs with the configured port, brackets for IPv6', () => {
    expect(memberUrl(CONFIGURED, '127.0.0.2')).toBe('https://127.0.0.2:8006')
    expect(memberUrl('https://pve.example.com', '127.0.0.2')).toBe('https://127.0.0.2')
    expect(memberUrl(CONFIGURED, 'fd00::2')).toBe('https://[fd00::2]:8006')
    expect(memberUrl('not a url', '127.0.0.2')).toBeUndefined()
  })

  it('fails over only when the host does not answer', () => {
    expect(isFailoverError(unreachable)).toBe(true)
    expect(isFailoverError(new AppError('PVE_TIMEOUT', { host: 'h', ms: 1 }))).toBe(true)
    expect(isFailoverError(new AppError('PVE_AUTH_REJECTED', { host: 'h' }))).toBe(false)
    expect(isFailoverError(new AppError('PVE_TLS_MISMATCH', { host: 'h', actual: 'x' }))).toBe(
      false,
    )
    expect(isFailoverError(new Error('x'))).toBe(false)
  })

  it('plans the active URL, then online members except the configured one, at most max', () => {
    const state = createFailoverState(CONFIGURED)
    learnLocalMember(state, CONFIGURED, 'node1')
    const plan = planAttempts(state, fixtureCluster, 0, 10)
    expect(plan[0]).toBe(CONFIGURED)
    expect(plan.slice(1).sort()).toEqual(
      ['node2', 'node3', 'node4'].map((n) => `https://${ipOf(n)}:8006`).sort(),
    )
    expect(planAttempts(state, fixtureCluster, 0, 3)).toHaveLength(3)
    // Rotation gives every member a turn when there are more than max - 1 of them.
    const seconds = [0, 1, 2].map((cycle) => planAttempts(state, fixtureCluster, cycle, 2)[1])
    expect(new Set(seconds).size).toBe(3)
  })

  it('skips offline members and plans nothing more for a standalone host', () => {
    const state = createFailoverState(CONFIGURED)
    const cluster = toClusterInfo([
      { type: 'cluster', name: 'lab' },
      { type: 'node', name: 'a', ip: '127.0.0.2', online: 0 },
      { type: 'node', name: 'b', ip: '127.0.0.3', online: 1 },
      { type: 'node', name: 'c', online: 1 },
    ])
    expect(planAttempts(state, cluster, 0, 5)).toEqual([CONFIGURED, 'https://127.0.0.3:8006'])
    const standalone = toClusterInfo([{ type: 'node', name: 'a', ip: '127.0.0.2', online: 1 }])
    expect(planAttempts(state, standalone, 0, 5)).toEqual([CONFIGURED])
    expect(planAttempts(state, undefined, 0, 5)).toEqual([CONFIGURED])
  })

  it('tries a member first while away, and the configured URL first once a probe saw it back', async () => {
    const state = createFailoverState(CONFIGURED)
    const member = 'https://127.0.0.3:8006'
    expect(recordAnswer(state, member)).toBe('failed-over')
    expect(shouldProbeHome(state, 5, 3)).toBe(true)
    state.probedCycle = 5
    expect(shouldProbeHome(state, 7, 3)).toBe(false)
    const cluster = toClusterInfo([
      { type: 'cluster', name: 'lab' },
      { type: 'node', name: 'b', ip: '127.0.0.3', online: 1 },
    ])
    expect(planAttempts(state, cluster, 0, 3)).toEqual([member, CONFIGURED])
    state.homeAnswered = true
    expect(planAttempts(state, cluster, 0, 3)).toEqual([CONFIGURED, member])
    await pollWithFailover(
      state,
      [CONFIGURED, member],
      () => Promise.resolve(),
      () => {},
    )
    expect(state.homeAnswered).toBe(false)
    expect(state.activeUrl).toBe(CONFIGURED)
    expect(shouldProbeHome(state, 100, 3)).toBe(false)
  })

  it('describes the endpoint for the node API, the configured member at its configured URL', () => {
    const state = createFailoverState(CONFIGURED)
    learnLocalMember(state, CONFIGURED, 'node1')
    const info = toEndpointInfo(state, fixtureCluster)
    expect(info).toMatchObject({
      configuredUrl: CONFIGURED,
      activeUrl: CONFIGURED,
      isCluster: true,
      clusterName: 'clustername',
    })
    expect(info.members.find((m) => m.NodeName === 'node1')).toEqual({
      NodeName: 'node1',
      IP: ipOf('node1'),
      Online: true,
      Host: CONFIGURED,
    })
    expect(info.members.find((m) => m.NodeName === 'node3')?.Host).toBe(
      `https://${ipOf('node3')}:8006`,
    )
  })

  it('stops after a first error that is not about reachability', async () => {
    const state = createFailoverState(CONFIGURED)
    const tried: string[] = []
    const outcome = await pollWithFailover(
      state,
      [CONFIGURED, 'https://127.0.0.2'],
      (url) => {
        tried.push(url)
        return Promise.reject(new AppError('PVE_AUTH_REJECTED', { host: 'pve1' }))
      },
      () => {},
    )
    expect(tried).toEqual([CONFIGURED])
    expect(outcome.ok).toBe(false)
  })

  it('moves on to members after a transport error and reports every failure', async () => {
    const state = createFailoverState(CONFIGURED)
    const memberFailures: string[] = []
    const outcome = await pollWithFailover(
      state,
      [CONFIGURED, 'https://127.0.0.2', 'https://127.0.0.3'],
      (url) =>
        url.endsWith('.3')
          ? Promise.resolve()
          : Promise.reject(
              url === CONFIGURED
                ? unreachable
                : new AppError('PVE_TLS_MISMATCH', { host: '127.0.0.2', actual: 'AA:BB' }),
            ),
      (url) => memberFailures.push(url),
    )
    expect(outcome).toEqual({ ok: true, url: 'https://127.0.0.3', change: 'failed-over' })
    expect(memberFailures).toEqual(['https://127.0.0.2'])
    expect(state.activeUrl).toBe('https://127.0.0.3')
    expect(
      describeFailures([
        unreachable,
        new AppError('PVE_TLS_MISMATCH', { host: '127.0.0.2:8006', actual: 'AA:BB' }),
      ]),
    ).toBe(
      'Cannot reach h: ECONNREFUSED. Other cluster members: TLS fingerprint of 127.0.0.2:8006 does not match the pinned one (got AA:BB).',
    )
  })
})

// The poller's failover over real HTTPS, in the cases the simulator cannot play (its members
// share one certificate; poller-sim.test.ts covers the failover and the return): two small local
// "cluster members" on 127.0.0.1 and 127.0.0.2 at the same port, one with its own certificate.
describe('poller failover between cluster members', () => {
  const TOKEN = { kind: 'token' as const, tokenId: 'monitor@pve!dash', secret: 'good-secret' }
  let cert: TestCert
  let otherCert: TestCert
  let port = 0
  const servers = new Map<string, Server>()
  const seen: string[] = []
  const pollers: Poller[] = []

  // Both members answer for the same cluster; each says it is the `local` one.
  function answer(ip: string, path: string, auth: string | undefined): [number, unknown] {
    if (auth !== `PVEAPIToken=${TOKEN.tokenId}=${TOKEN.secret}`) return [401, null]
    const node = ip === '127.0.0.1' ? 'pve1' : 'pve2'
    if (path === '/version') return [200, { version: '8.4.14' }]
    if (path === '/cluster/status') {
      return [
        200,
        [
          { type: 'cluster', id: 'cluster', name: 'lab', nodes: 2, quorate: 1 },
          {
            type: 'node',
            name: 'pve1',
            ip: '127.0.0.1',
            online: 1,
            local: node === 'pve1' ? 1 : 0,
          },
          {
            type: 'node',
            name: 'pve2',
            ip: '127.0.0.2',
            online: 1,
            local: node === 'pve2' ? 1 : 0,
          },
        ],
      ]
    }
    if (path === '/cluster/resources') {
      return [
        200,
        [
          { id: 'node/pve1', type: 'node', node: 'pve1', status: 'online', maxcpu: 4 },
          { id: 'node/pve2', type: 'node', node: 'pve2', status: 'online', maxcpu: 4 },
          { id: 'lxc/200', type: 'lxc', vmid: 200, node: 'pve2', status: 'stopped', maxmem: 1 },
        ],
      ]
    }
    if (/^\/nodes\/[^/]+\/status$/.test(path)) return [200, { pveversion: 'pve-manager/8.4.14/x' }]
    return [501, null]
  }

  async function startMember(ip: string, withCert: TestCert, at: number): Promise<number> {
    const server = createServer({ key: withCert.key, cert: withCert.cert }, (req, res) => {
      const path = (req.url ?? '').replace('/api2/json', '')
      seen.push(`${ip} ${path}`)
      const [status, data] = answer(ip, path, req.headers.authorization)
      res.writeHead(status, status === 200 ? 'OK' : 'Nope', { 'content-type': 'application/json' })
      res.end(JSON.stringify({ data }))
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(at, ip, () => resolve())
    })
    servers.set(ip, server)
    return (server.address() as AddressInfo).port
  }

  async function stopMember(ip: string): Promise<void> {
    const server = servers.get(ip)
    servers.delete(ip)
    if (!server) return
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  }

  // Member 2 picks a free port; member 1 must get the same one on its own address.
  async function startPair(memberCert: TestCert): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      port = await startMember('127.0.0.2', memberCert, 0)
      try {
        await startMember('127.0.0.1', cert, port)
        return
      } catch {
        await stopMember('127.0.0.2')
      }
    }
    throw new Error('no common free port on 127.0.0.1 and 127.0.0.2')
  }

  function setup(fingerprint?: string) {
    const states: CollectedState[] = []
    const poller = createPoller({ onState: (s) => states.push(s) })
    pollers.push(poller)
    const endpoint: MonitoredEndpoint = {
      id: 'pve-0',
      name: 'lab',
      type: 'pve',
      host: `https://127.0.0.1:${port}`,
      auth: TOKEN,
      verifySSL: false,
      ...(fingerprint ? { fingerprint } : {}),
    }
    poller.setEndpoints([endpoint])
    return { poller, last: () => states.at(-1)!, endpoint }
  }

  beforeAll(async () => {
    cert = await createTestCert()
    otherCert = await createTestCert()
  })

  afterEach(async () => {
    await Promise.all(pollers.splice(0).map((p) => p.stop()))
    await Promise.all([...servers.keys()].map(stopMember))
    seen.length = 0
  })

  afterAll(async () => {
    await Promise.all([...servers.keys()].map(stopMember))
  })

  it('reports a member whose certificate does not match the pinned fingerprint', async () => {
    await startPair(otherCert)
    const t = setup(cert.fingerprint256)
    await t.poller.pollNow()
    await stopMember('127.0.0.1')
    await t.poller.pollNow()
    const error = t.last().connectionErrors.lab ?? ''
    expect(t.last().connectionHealth.lab).toBe(false)
    expect(error).toContain(`Cannot reach 127.0.0.1:${port}`)
    expect(error).toContain(`TLS fingerprint of 127.0.0.2:${port} does not match the pinned one`)
    expect(t.poller.endpointInfo('pve-0')?.activeUrl).toBe(t.endpoint.host)
  })

  it('does not fail over on rejected credentials', async () => {
    await startPair(cert)
    const t = setup()
    await t.poller.pollNow()
    t.poller.setEndpoints([{ ...t.endpoint, auth: { ...TOKEN, secret: 'revoked' } }])
    seen.length = 0
    await t.poller.pollNow()
    expect(t.last().connectionErrors.lab).toMatch(/rejected the credentials/)
    expect(seen.some((line) => line.startsWith('127.0.0.2'))).toBe(false)
    expect(t.poller.endpointInfo('unknown')).toBeUndefined()
  })
})
