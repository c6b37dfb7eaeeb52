import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
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

function setup(options: { createClient?: (e: MonitoredEndpoint) => PveClient } = {}) {
  let clock = 1_000_000
  const states: CollectedState[] = []
  const poller = createPoller({ now: () => clock, onState: (s) => states.push(s), ...options })
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
    detailAnswer = () => ({ status: 595, reason: 'Connection timed out' })
    t.advance(10_000)
    await t.poller.pollNow()
    const pve1 = t.last().nodes[0]!
    expect(pve1.pveVersion).toBe('pve-manager/8.4.14/b502d23c55afcba1')
    expect(pve1.connectionHealth).toBe('degraded')
    expect(t.last().connectionHealth.lab).toBe(true)
    expect(t.last().performance.failedApiCalls).toBe(1)
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
    expect(closed).toEqual(['pve-0'])
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

  it('reads /cluster/status from its cache on two of every three cycles and reports call stats', async () => {
    counters = 0
    detailAnswer = () => DETAIL
    const t = setup()
    t.poller.setEndpoints([endpoint('pve-0', 'lab')])
    for (let i = 0; i < 4; i++) await t.poller.pollNow()
    const perf = t.last().performance
    expect(stub.requests.filter((r) => r.path === '/api2/json/cluster/status')).toHaveLength(2)
    expect(perf.cacheMisses).toBe(2)
    expect(perf.cacheHits).toBe(2)
    expect(perf.totalApiCalls).toBe(4 + 2 + 4)
    expect(perf.failedApiCalls).toBe(0)
    expect(Object.keys(perf.apiCallDuration).sort()).toEqual([
      'cluster/resources',
      'cluster/status',
      'nodes/status',
    ])
    expect(perf.pollingStartTime).toBe(1_000_000)
  })

  it('reports every endpoint as unhealthy when a host is not a valid URL, without throwing', async () => {
    const t = setup()
    t.poller.setEndpoints([{ ...endpoint('pve-0', 'lab'), host: 'not a url' }])
    await t.poller.pollNow()
    expect(t.last().connectionHealth).toEqual({ lab: false })
    expect(t.last().connectionErrors.lab).toMatch(/host/)
  })
})
