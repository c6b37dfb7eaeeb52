import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createPveClient, type PveClient } from '../../../../src/server/collect/pve-client.ts'
import {
  createPoller,
  type CollectedState,
  type MonitoredEndpoint,
  type Poller,
} from '../../../../src/server/collect/poller.ts'
import {
  createTestCert,
  startStubPve,
  type SeenRequest,
  type StubAnswer,
  type StubPve,
  type TestCert,
} from './stub-pve.ts'
import type { DetailPolicy } from '../../../../src/server/collect/pve-agent.ts'
import { readFixture } from './fixtures.ts'

// A recorded answer as the wire carries it, with the `data` envelope.
function readFixtureBody(name: string): unknown {
  return { data: readFixture(name) }
}

const GOOD = { kind: 'token' as const, tokenId: 'monitor@pve!dash', secret: 'good-secret' }
const BAD = { kind: 'token' as const, tokenId: 'monitor@pve!dash', secret: 'revoked-secret' }

let cert: TestCert
let stub: StubPve
let counters: number
let detailAnswer: () => StubAnswer
const pollers: Poller[] = []

beforeAll(async () => {
  cert = await createTestCert()
  stub = await startStubPve(cert, answerLikePve)
})

afterAll(async () => {
  await stub.close()
})

afterEach(async () => {
  await Promise.all(pollers.splice(0).map((p) => p.stop()))
  stub.requests.length = 0
  stub.handler = answerLikePve
})

// A two-node cluster "lab": pve1 online, pve2 offline; a VM and a container run on pve1.
function answerLikePve(req: SeenRequest): StubAnswer {
  if (req.headers.authorization !== `PVEAPIToken=${GOOD.tokenId}=${GOOD.secret}`) {
    return { status: 401, reason: 'invalid token value!' }
  }
  const path = req.path.replace('/api2/json', '')
  if (path === '/cluster/resources') {
    const guest = {
      maxcpu: 2,
      mem: 512,
      maxmem: 1024,
      maxdisk: 4096,
      uptime: 100 + counters / 1000,
    }
    return {
      body: {
        data: [
          {
            id: 'node/pve1',
            type: 'node',
            node: 'pve1',
            status: 'online',
            cpu: 0.1,
            maxcpu: 8,
            mem: 4,
            maxmem: 16,
            disk: 1,
            maxdisk: 10,
            uptime: 5000,
          },
          { id: 'node/pve2', type: 'node', node: 'pve2', status: 'offline' },
          {
            ...guest,
            id: 'qemu/100',
            type: 'qemu',
            vmid: 100,
            name: 'web',
            node: 'pve1',
            status: 'running',
            disk: 0,
            tags: 'prod',
            netin: counters,
            netout: counters * 2,
            diskread: counters * 3,
            diskwrite: counters * 4,
          },
          {
            ...guest,
            id: 'lxc/200',
            type: 'lxc',
            vmid: '200',
            name: 'dns',
            node: 'pve1',
            status: 'running',
            disk: 2048,
            netin: counters,
            netout: 0,
            diskread: 0,
            diskwrite: 0,
          },
          {
            ...guest,
            id: 'qemu/101',
            type: 'qemu',
            vmid: 101,
            name: 'off',
            node: 'pve1',
            status: 'stopped',
            uptime: 0,
            mem: 0,
          },
          {
            id: 'storage/pve1/local',
            type: 'storage',
            node: 'pve1',
            storage: 'local',
            status: 'available',
          },
        ],
      },
    }
  }
  if (path === '/cluster/status') {
    return {
      body: {
        data: [
          { type: 'cluster', id: 'cluster', name: 'lab', nodes: 2, quorate: 1 },
          { type: 'node', name: 'pve1', nodeid: 1, online: 1, ip: '10.0.0.1' },
          { type: 'node', name: 'pve2', nodeid: 2, online: 0, ip: '10.0.0.2' },
        ],
      },
    }
  }
  if (path === '/nodes/pve1/status') return detailAnswer()
  return { status: 501, reason: `Method 'GET ${path}' not implemented` }
}

const DETAIL = {
  body: {
    data: {
      loadavg: ['0.50', '0.40', '0.30'],
      pveversion: 'pve-manager/8.4.14/b502d23c55afcba1',
      memory: { total: 16, used: 8, free: 8 },
      rootfs: { total: 10, used: 2, avail: 8, free: 8 },
      cpuinfo: { cores: 4, sockets: 1, model: 'Test CPU', cpus: 8 },
      'current-kernel': { release: '6.8.12-9-pve' },
    },
  },
}

function endpoint(id: string, name: string, auth = GOOD): MonitoredEndpoint {
  return {
    id,
    name,
    type: 'pve',
    host: stub.url,
    auth,
    verifySSL: false,
    fingerprint: cert.fingerprint256,
  }
}

function setup(
  options: {
    createClient?: (e: MonitoredEndpoint) => PveClient
    guestDetails?: Partial<DetailPolicy>
    intervalMs?: number
  } = {},
) {
  let clock = 1_000_000
  const states: CollectedState[] = []
  // These cases count the cycle's own calls on the stub: the slower collectors (storage, disks,
  // backups) have their own tests (pve-slow.test.ts, poller-sim.test.ts).
  const poller = createPoller({
    now: () => clock,
    onState: (s) => states.push(s),
    slowCollectors: false,
    ...options,
  })
  pollers.push(poller)
  return {
    poller,
    states,
    last: () => states.at(-1)!,
    advance(ms: number) {
      clock += ms
      counters += ms
    },
  }
}

function resourceCalls(): number {
  return stub.requests.filter((r) => r.path === '/api2/json/cluster/resources').length
}

describe('createPoller', () => {
  it('polls two endpoints, reports the failing one with its error and computes rates over two cycles', async () => {
    counters = 0
    detailAnswer = () => DETAIL
    const t = setup()
    t.poller.setEndpoints([endpoint('pve-0', 'lab'), endpoint('pve-1', 'broken', BAD)])
    expect(t.poller.endpointStatus('pve-0')).toBe('pending')

    await t.poller.pollNow()
    const first = t.last()
    expect(first.connectionHealth).toEqual({ lab: true, broken: false })
    expect(first.connectionErrors.broken).toMatch(/rejected the credentials/)
    expect(first.connectionErrors.broken).not.toContain('revoked-secret')
    expect(first.connectionErrors.lab).toBeUndefined()
    expect(t.poller.endpointStatus('pve-0')).toBe('connected')
    expect(t.poller.endpointStatus('pve-1')).toBe('error')
    expect(first.vms.map((g) => g.id).sort()).toEqual(['lab-pve1-100', 'lab-pve1-101'])
    expect(first.containers.map((g) => g.id)).toEqual(['lab-pve1-200'])
    expect(first.vms.find((g) => g.vmid === 100)?.networkIn).toBe(0)

    t.advance(10_000)
    await t.poller.pollNow()
    const second = t.last()
    const web = second.vms.find((g) => g.vmid === 100)!
    expect(web).toMatchObject({
      networkIn: 1000,
      networkOut: 2000,
      diskRead: 3000,
      diskWrite: 4000,
      tags: ['prod'],
    })
    expect(second.containers[0]?.networkIn).toBe(1000)
    expect(second.vms.find((g) => g.vmid === 101)?.networkIn).toBe(0)
    expect(second.pollingCycles).toBe(2)
    expect(second.lastUpdate).toBe(1_010_000)
    // Slow collectors off: nothing to wait for, the failing endpoint never blocks it.
    expect(second.backupsCollected).toBe(true)
  })

  it('maps nodes with cluster membership and detail, and an offline node without detail', async () => {
    counters = 0
    detailAnswer = () => DETAIL
    const t = setup()
    t.poller.setEndpoints([endpoint('pve-0', 'lab')])
    await t.poller.pollNow()
    const [pve1, pve2] = t.last().nodes
    expect(pve1).toMatchObject({
      id: 'lab-pve1',
      status: 'online',
      host: stub.url,
      isClusterMember: true,
      clusterName: 'lab',
      loadAverage: [0.5, 0.4, 0.3],
      pveVersion: 'pve-manager/8.4.14/b502d23c55afcba1',
      kernelVersion: '6.8.12-9-pve',
      connectionHealth: 'healthy',
    })
    expect(pve2).toMatchObject({ id: 'lab-pve2', status: 'offline', connectionHealth: 'error' })
    // Offline nodes are never asked for detail: that would be a 595 from the proxy.
    expect(stub.requests.some((r) => r.path.includes('/nodes/pve2/'))).toBe(false)
  })

  it('keeps the last good node detail when /nodes/{n}/status fails', async () => {
    counters = 0
    detailAnswer = () => DETAIL
    const t = setup()
    t.poller.setEndpoints([endpoint('pve-0', 'lab')])
    await t.poller.pollNow()
    const failedBefore = t.last().performance.failedApiCalls
    detailAnswer = () => ({ status: 500, reason: 'pvestatd not responding' })
    t.advance(10_000)
    await t.poller.pollNow()
    const pve1 = t.last().nodes[0]!
    expect(pve1.status).toBe('online')
    expect(pve1.pveVersion).toBe('pve-manager/8.4.14/b502d23c55afcba1')
    expect(pve1.connectionHealth).toBe('degraded')
    expect(t.last().connectionHealth.lab).toBe(true)
    expect(t.last().performance.failedApiCalls).toBe(failedBefore + 1)
    expect(t.last().vms.find((g) => g.vmid === 100)?.status).toBe('running')
  })

  it('takes a node whose status the cluster cannot proxy (595) offline, with its guests', async () => {
    counters = 0
    detailAnswer = () => DETAIL
    const t = setup()
    t.poller.setEndpoints([endpoint('pve-0', 'lab')])
    await t.poller.pollNow()
    t.advance(10_000)
    await t.poller.pollNow()
    expect(t.last().vms.find((g) => g.vmid === 100)?.networkIn).toBe(1000)

    detailAnswer = () => ({ status: 595, reason: 'Connection refused' })
    t.advance(10_000)
    await t.poller.pollNow()
    const state = t.last()
    expect(state.nodes[0]).toMatchObject({
      name: 'pve1',
      status: 'offline',
      connectionHealth: 'error',
    })
    expect(state.connectionHealth.lab).toBe(true)
    const web = state.vms.find((g) => g.vmid === 100)!
    expect(web).toMatchObject({ status: 'unknown', cpu: 0, uptime: 0, networkIn: 0, diskWrite: 0 })
    expect(web.memory.used).toBe(0)
    expect(state.containers[0]).toMatchObject({ status: 'unknown', networkIn: 0 })
    // A stopped guest stays stopped.
    expect(state.vms.find((g) => g.vmid === 101)?.status).toBe('stopped')
  })

  it('keeps the nodes as offline and the guests of an endpoint that starts failing', async () => {
    counters = 0
    detailAnswer = () => DETAIL
    const t = setup()
    t.poller.setEndpoints([endpoint('pve-0', 'lab')])
    await t.poller.pollNow()
    t.advance(10_000)
    await t.poller.pollNow()
    expect(t.last().vms.find((g) => g.vmid === 100)?.networkIn).toBe(1000)

    stub.handler = () => ({ status: 500, reason: 'pveproxy overloaded' })
    await t.poller.pollNow()
    const state = t.last()
    expect(state.connectionHealth.lab).toBe(false)
    expect(state.connectionErrors.lab).toContain('500 pveproxy overloaded')
    expect(state.nodes.map((n) => n.status)).toEqual(['offline', 'offline'])
    expect(state.vms.map((g) => g.vmid).sort()).toEqual([100, 101])
    expect(state.vms.find((g) => g.vmid === 100)?.networkIn).toBe(0)
    expect(state.containers).toHaveLength(1)
  })

  it('drops a removed endpoint at the next state and closes its client', async () => {
    counters = 0
    detailAnswer = () => DETAIL
    const closed: string[] = []
    const t = setup({
      createClient: (e) => {
        const client = createPveClient({ host: e.host, auth: e.auth, verifySSL: false })
        return { ...client, get: client.get, close: () => (closed.push(e.id), client.close()) }
      },
    })
    t.poller.setEndpoints([endpoint('pve-0', 'lab'), endpoint('pve-1', 'other')])
    await t.poller.pollNow()
    expect(Object.keys(t.last().connectionHealth).sort()).toEqual(['lab', 'other'])

    t.poller.setEndpoints([endpoint('pve-1', 'other')])
    // Its cycle client and its guest-detail client, once background work has settled.
    await vi.waitFor(() => expect(closed).toEqual(['pve-0', 'pve-0']))
    await t.poller.pollNow()
    expect(Object.keys(t.last().connectionHealth)).toEqual(['other'])
    expect(t.last().nodes.every((n) => n.instance === 'other')).toBe(true)
  })

  it('never overlaps cycles: pollNow during a cycle runs exactly one more cycle after it', async () => {
    counters = 0
    detailAnswer = () => DETAIL
    const t = setup()
    t.poller.setEndpoints([endpoint('pve-0', 'lab')])
    let inFlight = 0
    let peak = 0
    stub.handler = async (req) => {
      inFlight++
      peak = Math.max(peak, inFlight)
      await new Promise((resolve) => setTimeout(resolve, 40))
      inFlight--
      return answerLikePve(req)
    }
    const first = t.poller.pollNow()
    const second = t.poller.pollNow()
    const third = t.poller.pollNow()
    await Promise.all([first, second, third])
    expect(t.states).toHaveLength(2)
    expect(resourceCalls()).toBe(2)
    expect(peak).toBeLessThanOrEqual(2)
  })

  it('reads /cluster/status every 30 s (from its cache on two of every three 10 s cycles) and reports call stats', async () => {
    counters = 0
    detailAnswer = () => DETAIL
    const t = setup()
    t.poller.setEndpoints([endpoint('pve-0', 'lab')])
    for (let i = 0; i < 4; i++) {
      if (i > 0) t.advance(10_000)
      await t.poller.pollNow()
    }
    const perf = t.last().performance
    expect(stub.requests.filter((r) => r.path === '/api2/json/cluster/status')).toHaveLength(2)
    // The two running guests: status/current once (this stub answers 501), then from the cache.
    const guestCalls = stub.requests.filter((r) => r.path.endsWith('/status/current'))
    expect(guestCalls.map((r) => r.path).sort()).toEqual([
      '/api2/json/nodes/pve1/lxc/200/status/current',
      '/api2/json/nodes/pve1/qemu/100/status/current',
    ])
    // Cluster status: 2 misses, 2 hits. Guest details: 2 misses, then 2 hits in 3 cycles.
    expect(perf.cacheMisses).toBe(2 + 2)
    expect(perf.cacheHits).toBe(2 + 6)
    expect(perf.totalApiCalls).toBe(4 + 2 + 4 + 2)
    expect(perf.failedApiCalls).toBe(2)
    expect(Object.keys(perf.apiCallDuration).sort()).toEqual([
      'cluster/resources',
      'cluster/status',
      'nodes/status',
    ])
    expect(perf.pollingStartTime).toBe(1_030_000)
  })

  it('reads /cluster/status on every cycle at a 60 s poll interval (its cadence is 30 s)', async () => {
    counters = 0
    detailAnswer = () => DETAIL
    const t = setup({ intervalMs: 60_000 })
    t.poller.setEndpoints([endpoint('pve-0', 'lab')])
    for (let i = 0; i < 3; i++) {
      if (i > 0) t.advance(60_000)
      await t.poller.pollNow()
    }
    expect(stub.requests.filter((r) => r.path === '/api2/json/cluster/status')).toHaveLength(3)
  })

  it('merges guest details into the guests: VM agent data and container swap and addresses', async () => {
    counters = 0
    detailAnswer = () => DETAIL
    const t = setup()
    stub.handler = (req) => {
      const path = req.path.replace('/api2/json', '')
      const base = '/nodes/pve1'
      if (path === `${base}/qemu/100/status/current`) {
        return { body: { data: { status: 'running', uptime: 100, agent: 1 } } }
      }
      if (path === `${base}/qemu/100/agent/get-fsinfo`) {
        return { body: readFixtureBody('qemu-agent-get-fsinfo-windows__pulse-issue1319.json') }
      }
      if (path === `${base}/qemu/100/agent/network-get-interfaces`) {
        return {
          body: readFixtureBody(
            'qemu-agent-network-get-interfaces__unidentified-pve9-capture.json',
          ),
        }
      }
      if (path === `${base}/qemu/100/agent/get-osinfo`) {
        return { body: { data: { result: { 'pretty-name': 'Debian GNU/Linux 12 (bookworm)' } } } }
      }
      if (path === `${base}/lxc/200/status/current`) {
        return { body: { data: { status: 'running', uptime: 100, swap: 5, maxswap: 50 } } }
      }
      if (path === `${base}/lxc/200/interfaces`) {
        return { body: readFixtureBody('lxc-interfaces__go-proxmox.json') }
      }
      return answerLikePve(req)
    }
    t.poller.setEndpoints([endpoint('pve-0', 'lab')])
    await vi.waitFor(async () => {
      await t.poller.pollNow()
      expect(t.last().vms.find((g) => g.vmid === 100)?.disks).toHaveLength(3)
    })
    const web = t.last().vms.find((g) => g.vmid === 100)!
    expect(web.disk.usage).toBe(83.71)
    expect(web.diskStatusReason).toBeUndefined()
    expect(web.osName).toBe('Debian GNU/Linux 12 (bookworm)')
    expect(web.networkInterfaces?.map((n) => n.name)).toEqual(['ens18'])
    const dns = t.last().containers[0]!
    expect(dns.memory).toMatchObject({ swapUsed: 5, swapTotal: 50 })
    expect(dns.networkInterfaces?.map((n) => n.name)).toEqual(['eth0'])
    // The stopped VM is never asked.
    expect(stub.requests.some((r) => r.path.includes('/qemu/101/'))).toBe(false)
    const perf = t.last().performance
    expect(perf.apiCallDuration).toBeDefined()
    expect(perf.totalApiCalls).toBeGreaterThanOrEqual(6 + 3)
  })

  it('keeps guests live when the token cannot see node entries at all', async () => {
    counters = 0
    detailAnswer = () => DETAIL
    stub.handler = async (req) => {
      const answer = await answerLikePve(req)
      if (!req.path.endsWith('/cluster/resources')) return answer
      const data = (answer.body as { data: Array<{ type: string }> }).data
      return { body: { data: data.filter((e) => e.type !== 'node') } }
    }
    const t = setup()
    t.poller.setEndpoints([endpoint('pve-0', 'lab')])
    await t.poller.pollNow()
    expect(t.last().nodes).toEqual([])
    expect(t.last().vms.find((g) => g.vmid === 100)?.status).toBe('running')
    expect(t.last().containers[0]?.status).toBe('running')
  })

  it('finishes its cycles while a guest agent hangs, then reports agent-timeout', async () => {
    counters = 0
    detailAnswer = () => DETAIL
    let answered = 0
    stub.handler = (req) => {
      const path = req.path.replace('/api2/json', '')
      if (path === '/nodes/pve1/qemu/100/status/current') {
        return { body: { data: { status: 'running', uptime: 100, agent: 1 } } }
      }
      // The agent never answers; only the per-call budget ends the request.
      if (path.includes('/agent/')) return new Promise<StubAnswer>(() => {})
      answered++
      return answerLikePve(req)
    }
    const t = setup({ guestDetails: { timeoutMs: 1_500 } })
    t.poller.setEndpoints([endpoint('pve-0', 'lab')])
    await t.poller.pollNow()
    await t.poller.pollNow()
    await t.poller.pollNow()
    // Three cycles done while the one get-fsinfo call was still hanging.
    const fsinfo = () => stub.requests.filter((r) => r.path.endsWith('/agent/get-fsinfo'))
    expect(t.last().pollingCycles).toBe(3)
    expect(fsinfo()).toHaveLength(1)
    expect(t.last().vms.find((g) => g.vmid === 100)?.diskStatusReason).toBe('no-data')
    expect(answered).toBeGreaterThan(0)
    await vi.waitFor(
      async () => {
        await t.poller.pollNow()
        expect(t.last().vms.find((g) => g.vmid === 100)?.diskStatusReason).toBe('agent-timeout')
      },
      { timeout: 10_000, interval: 50 },
    )
    // The cycles went on meanwhile (the backoff itself is covered in pve-agent.test.ts).
    expect(t.last().pollingCycles).toBeGreaterThan(3)
  })

  it('reports every endpoint as unhealthy when a host is not a valid URL, without throwing', async () => {
    const t = setup()
    t.poller.setEndpoints([{ ...endpoint('pve-0', 'lab'), host: 'not a url' }])
    await t.poller.pollNow()
    expect(t.last().connectionHealth).toEqual({ lab: false })
    expect(t.last().connectionErrors.lab).toMatch(/host/)
  })
})
