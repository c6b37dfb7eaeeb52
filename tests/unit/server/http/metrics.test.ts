// GET /metrics (issue 28 item 5) through the real app: real HTTP on 127.0.0.1 with authentication
// on, a real SQLite file, a published state with the cases that matter (a name to escape, a
// stopped guest, a VM without the guest agent, a guest on an offline node, an inactive storage, a
// PBS). Who may scrape, what each series holds compared with /api/state, what is absent, the
// pulse_ figures (alerts, the notification outbox) and `promtool check metrics` over the answer.
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { CollectedState } from '../../../../src/server/collect/poller.ts'
import { readConfig } from '../../../../src/server/config.ts'
import { enqueueEvents } from '../../../../src/server/notify/enqueue.ts'
import { createOutboxRepo } from '../../../../src/server/store/outbox-repo.ts'
import { createDefaultAlertConfig } from '../../../../src/server/alerts/config-defaults.ts'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { Guest, PveNode, State } from '../../../../src/shared/model/state.ts'
import { prometheusUnavailable, promtoolCheckMetrics } from '../../../support/prometheus.ts'
import { cpuPoll, useNoDelays } from '../alerts/alert-fixture.ts'
import { makeCollected } from '../collected-fixture.ts'
import { buildTestApp } from '../helpers.ts'
import { fired, hook, T0 } from '../notify/notify-fixture.ts'
import { quickSetup, startAuthServer, type AuthTestServer } from '../auth/auth-helpers.ts'

const SCRAPE_TOKEN = 'scrape-token-0123456789abcdef'
const GIB = 1024 ** 3
const ODD_NAME = 'web "blue" C:\\vm\nsecond line'

/** PULSE_METRICS_TOKEN as readConfig reads it. */
const metricsToken = () =>
  readConfig(
    { PULSE_METRICS_TOKEN: SCRAPE_TOKEN, PULSE_DATA_DIR: path.join('/tmp', 'unused') },
    process.cwd(),
    '0.0.0-test',
  ).metricsToken

function guest(over: Partial<Guest> & Pick<Guest, 'id' | 'vmid' | 'node'>): Guest {
  return {
    instance: 'lab',
    name: `vm-${over.vmid}`,
    type: 'qemu',
    status: 'running',
    uptime: 3600,
    cpu: 0.25,
    cpus: 2,
    memory: { usage: 25, used: 1 * GIB, total: 4 * GIB },
    disk: { usage: -1, used: 0, total: 32 * GIB },
    diskRead: 1000,
    diskWrite: 2000,
    networkIn: 3000,
    networkOut: 4000,
    tags: [],
    ...over,
  }
}

/** The estate every case reads. */
function estate(): CollectedState {
  const base = makeCollected(0, 1)
  const online = base.nodes[0]!
  const offline: PveNode = {
    ...base.nodes[1]!,
    status: 'offline',
    cpu: 0,
    uptime: 0,
    memory: { usage: 0, used: 0, total: 0 },
    disk: { usage: 0, used: 0, total: 0 },
  }
  return {
    ...base,
    nodes: [online, offline],
    vms: [
      guest({ id: 'lab-pve1-100', vmid: 100, node: 'pve1', name: ODD_NAME, cpu: 0.123456789 }),
      guest({
        id: 'lab-pve1-101',
        vmid: 101,
        node: 'pve1',
        status: 'stopped',
        uptime: 0,
        cpu: 0,
        memory: { usage: 0, used: 0, total: 2 * GIB },
      }),
      // Running when its node was last seen; the node is offline now.
      guest({ id: 'lab-pve2-102', vmid: 102, node: 'pve2' }),
    ],
    containers: [
      guest({
        id: 'lab-pve1-200',
        vmid: 200,
        node: 'pve1',
        type: 'lxc',
        cpu: 0.5,
        disk: { usage: 25, used: 2 * GIB, total: 8 * GIB },
        tags: ['prod', 'db'],
      }),
    ],
    storage: [
      {
        id: 'lab-pve1-local',
        name: 'local',
        node: 'pve1',
        instance: 'lab',
        type: 'dir',
        content: 'backup,iso',
        status: 'available',
        shared: false,
        enabled: true,
        active: true,
        total: 100 * GIB,
        used: 40 * GIB,
        free: 60 * GIB,
        usage: 40,
      },
      {
        id: 'lab-pve1-nfs',
        name: 'nfs',
        node: 'pve1',
        instance: 'lab',
        type: 'nfs',
        content: 'backup',
        status: 'inactive',
        shared: true,
        enabled: true,
        active: false,
        total: 0,
        used: 0,
        free: 0,
        usage: 0,
      },
    ],
    pbs: [
      {
        id: 'pbs-main',
        name: 'main',
        host: 'https://127.0.0.1:8007',
        status: 'online',
        version: '3.4.1',
        cpu: 7.5,
        memory: 40,
        memoryUsed: 16 * GIB,
        memoryTotal: 40 * GIB,
        uptime: 99_000,
        datastores: [
          {
            name: 'store1',
            total: 1000 * GIB,
            used: 250 * GIB,
            free: 750 * GIB,
            usage: 25,
            status: 'available',
            namespaces: [],
          },
        ],
        connectionHealth: 'healthy',
        lastSeen: base.lastUpdate,
      },
    ],
  }
}

/** The value of the sample `name{labels}` in an exposition text, or undefined. */
function sampleOf(text: string, name: string, labels: string): number | undefined {
  const prefix = `${name}${labels} `
  const line = text.split('\n').find((l) => l.startsWith(prefix))
  return line === undefined ? undefined : Number(line.slice(prefix.length))
}
const byId = (text: string, name: string, id: string) => sampleOf(text, name, `{id="${id}"}`)

/** Every sample of a text by `name{labels}`, for reading many. */
function samplesOf(text: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const space = line.lastIndexOf(' ')
    out.set(line.slice(0, space), Number(line.slice(space + 1)))
  }
  return out
}

let server: AuthTestServer
let apiToken: string
let session: Record<string, string>
beforeAll(async () => {
  server = await startAuthServer({ metricsToken: metricsToken() })
  const creds = await quickSetup(server)
  apiToken = creds.apiToken
  session = { pulse_session: creds.cookies.pulse_session }
  await server.ctx.app.live.applyCollected(estate())
})
afterAll(() => server?.close())

const scrape = (headers: Record<string, string> = {}) => server.call('GET', '/metrics', { headers })
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe('who may read /metrics', () => {
  it('answers 401 without credentials and to a wrong token, asking for a bearer token', async () => {
    const refused: Array<Record<string, string>> = [
      {},
      bearer('wrong-token-0123456789'),
      { 'x-api-token': 'nope' },
    ]
    for (const headers of refused) {
      const res = await scrape(headers)
      expect(res.status, JSON.stringify(headers)).toBe(401)
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="Pulse metrics"')
      expect(res.text).not.toContain('pve_')
    }
  })

  it('answers 200 to the API token (Bearer or X-API-Token), PULSE_METRICS_TOKEN and a session', async () => {
    for (const headers of [
      bearer(apiToken),
      { 'x-api-token': apiToken },
      bearer(SCRAPE_TOKEN),
      { authorization: `bearer ${SCRAPE_TOKEN}` },
    ]) {
      const res = await scrape(headers)
      expect(res.status, JSON.stringify(headers)).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
      expect(res.text).toContain('# TYPE pve_up gauge')
    }
    const signedIn = await server.call('GET', '/metrics', { cookies: session })
    expect(signedIn.status).toBe(200)
  })

  it('opens /metrics only: the scrape token is refused on the API', async () => {
    expect((await server.call('GET', '/api/state', { headers: bearer(SCRAPE_TOKEN) })).status).toBe(
      401,
    )
    expect((await server.call('GET', '/api/state', { token: SCRAPE_TOKEN })).status).toBe(401)
  })

  it('is closed on a fresh instance and in API-token-only mode, whose open reads skip it', async () => {
    const fresh = await startAuthServer()
    const envToken = 'env-api-token-0123456789abcdef'
    const tokenOnly = await startAuthServer({
      apiToken: readConfig({ API_TOKEN: envToken }, process.cwd(), 't').apiToken,
    })
    try {
      expect((await fresh.call('GET', '/metrics')).status).toBe(401)
      expect((await tokenOnly.call('GET', '/api/state')).status).toBe(200)
      expect((await tokenOnly.call('GET', '/metrics')).status).toBe(401)
      const res = await tokenOnly.call('GET', '/metrics', { headers: bearer(envToken) })
      expect(res.status).toBe(200)
    } finally {
      await fresh.close()
      await tokenOnly.close()
    }
  })

  it('refuses a PULSE_METRICS_TOKEN shorter than 16 characters at start', () => {
    expect(() => readConfig({ PULSE_METRICS_TOKEN: 'short' }, process.cwd(), 't')).toThrow(
      'PULSE_METRICS_TOKEN must have 16 to 1024 characters',
    )
  })

  it('is open with DISABLE_AUTH=true, as every route is then', async () => {
    const open = await buildTestApp()
    try {
      expect((await open.app.http.inject({ url: '/metrics' })).statusCode).toBe(200)
    } finally {
      await open.close()
    }
  })
})

describe('what /metrics holds', () => {
  let text: string
  let state: State
  beforeAll(async () => {
    text = (await scrape(bearer(SCRAPE_TOKEN))).text
    const res = await server.call('GET', '/api/state?format=internal', { token: apiToken })
    state = res.json as State
  })

  it("gives a guest the state's own values (cpu as the 0-1 fraction the dashboard shows)", () => {
    const shown = state.vms.find((g) => g.id === 'lab-pve1-100')!
    const id = 'qemu/lab-pve1-100'
    expect(byId(text, 'pve_up', id)).toBe(1)
    expect(byId(text, 'pve_cpu_usage_ratio', id)).toBe(shown.cpu)
    expect(shown.cpu).toBe(0.123456789)
    expect(byId(text, 'pve_cpu_usage_limit', id)).toBe(shown.cpus)
    expect(byId(text, 'pve_memory_usage_bytes', id)).toBe(shown.memory.used)
    expect(byId(text, 'pve_memory_size_bytes', id)).toBe(shown.memory.total)
    expect(byId(text, 'pve_uptime_seconds', id)).toBe(shown.uptime)
    expect(byId(text, 'pve_network_receive_bytes_per_second', id)).toBe(shown.networkIn)
    expect(byId(text, 'pve_network_transmit_bytes_per_second', id)).toBe(shown.networkOut)
    expect(byId(text, 'pve_disk_read_bytes_per_second', id)).toBe(shown.diskRead)
    expect(byId(text, 'pve_disk_write_bytes_per_second', id)).toBe(shown.diskWrite)
    const ct = state.containers.find((g) => g.id === 'lab-pve1-200')!
    expect(byId(text, 'pve_disk_usage_bytes', 'lxc/lab-pve1-200')).toBe(ct.disk.used)
    expect(byId(text, 'pve_disk_size_bytes', 'lxc/lab-pve1-200')).toBe(ct.disk.total)
  })

  it('carries names, node, type and tags in _info series, escaped as the format requires', () => {
    expect(text).toContain(
      'pve_guest_info{id="qemu/lab-pve1-100",name="web \\"blue\\" C:\\\\vm\\nsecond line",' +
        'node="pve1",type="qemu",tags="",vmid="100",cluster="lab",template="0"} 1\n',
    )
    expect(text).toContain(
      'pve_guest_info{id="lxc/lab-pve1-200",name="vm-200",node="pve1",type="lxc",tags="prod;db",' +
        'vmid="200",cluster="lab",template="0"} 1\n',
    )
    expect(text).toContain('pve_node_info{id="node/lab-pve1",name="pve1",cluster="lab",')
    expect(text).toContain(
      'pve_storage_info{id="storage/lab-pve1-local",node="pve1",storage="local",plugintype="dir",' +
        'content="backup,iso",cluster="lab"} 1\n',
    )
    expect(text).toContain('pve_pbs_info{id="pbs/pbs-main",name="main",version="3.4.1"} 1\n')
    expect(text).toContain(
      'pve_datastore_info{id="datastore/pbs-main/store1",pbs="main",datastore="store1"} 1\n',
    )
    // One id label on every value series: the names live in _info only.
    for (const line of text.split('\n')) {
      if (line.startsWith('pve_') && !/^pve_\w+_info\{/.test(line)) {
        expect(line, line).toMatch(/^pve_\w+\{id="[^"]+"\} \S+$/)
      }
    }
  })

  it('leaves out what the dashboard shows as "-": no sample, not a zero', () => {
    // Stopped: up 0, sizes known, no usage.
    expect(byId(text, 'pve_up', 'qemu/lab-pve1-101')).toBe(0)
    expect(byId(text, 'pve_memory_size_bytes', 'qemu/lab-pve1-101')).toBe(2 * GIB)
    for (const name of ['pve_cpu_usage_ratio', 'pve_memory_usage_bytes', 'pve_uptime_seconds']) {
      expect(byId(text, name, 'qemu/lab-pve1-101'), name).toBeUndefined()
    }
    // A VM without the guest agent: its disk size, never a usage.
    expect(byId(text, 'pve_disk_size_bytes', 'qemu/lab-pve1-100')).toBe(32 * GIB)
    expect(byId(text, 'pve_disk_usage_bytes', 'qemu/lab-pve1-100')).toBeUndefined()
    // An offline node, and the guest on it: down, no stats.
    expect(byId(text, 'pve_up', 'node/lab-pve2')).toBe(0)
    expect(byId(text, 'pve_cpu_usage_ratio', 'node/lab-pve2')).toBeUndefined()
    expect(byId(text, 'pve_memory_size_bytes', 'node/lab-pve2')).toBeUndefined()
    expect(byId(text, 'pve_up', 'qemu/lab-pve2-102')).toBe(0)
    expect(byId(text, 'pve_cpu_usage_ratio', 'qemu/lab-pve2-102')).toBeUndefined()
    // An inactive storage: down, its size unknown.
    expect(byId(text, 'pve_up', 'storage/lab-pve1-nfs')).toBe(0)
    expect(byId(text, 'pve_disk_size_bytes', 'storage/lab-pve1-nfs')).toBeUndefined()
    expect(byId(text, 'pve_disk_size_bytes', 'storage/lab-pve1-local')).toBe(100 * GIB)
  })

  it('gives nodes, storage, PBS and datastores their values', () => {
    const node = state.nodes.find((n) => n.id === 'lab-pve1')!
    expect(byId(text, 'pve_cpu_usage_ratio', 'node/lab-pve1')).toBe(node.cpu)
    expect(byId(text, 'pve_memory_usage_bytes', 'node/lab-pve1')).toBe(node.memory.used)
    expect(byId(text, 'pve_storage_shared', 'storage/lab-pve1-nfs')).toBe(1)
    expect(byId(text, 'pve_disk_usage_bytes', 'storage/lab-pve1-local')).toBe(40 * GIB)
    // PBS cpu is a percent on our wire: the ratio is that / 100.
    expect(byId(text, 'pve_cpu_usage_ratio', 'pbs/pbs-main')).toBe(0.075)
    expect(byId(text, 'pve_disk_usage_bytes', 'datastore/pbs-main/store1')).toBe(250 * GIB)
    expect(byId(text, 'pve_up', 'datastore/pbs-main/store1')).toBe(1)
  })

  it('passes promtool check metrics (format and naming lint)', (context) => {
    const why = prometheusUnavailable()
    if (why) return context.skip(why)
    const check = promtoolCheckMetrics(text)
    expect(check.output).toBe('')
    expect(check.status).toBe(0)
  })

  it('answers gzip when asked, the same text inside', async () => {
    const res = await server.ctx.app.http.inject({
      url: '/metrics',
      headers: { ...bearer(SCRAPE_TOKEN), 'accept-encoding': 'gzip' },
    })
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(res.rawPayload).toString()).toBe(text)
  })
})

describe('scrapes across publications', () => {
  it("holds each state's own values while buffers go from one build to the next", async () => {
    const open = await startAuthServer({ authDisabled: true })
    try {
      for (let tick = 1; tick <= 4; tick++) {
        await open.ctx.app.live.applyCollected(makeCollected(2_000, tick))
        // Two answers of each state at once: they share its build.
        const [a, b] = await Promise.all([
          open.call('GET', '/metrics'),
          open.call('GET', '/metrics'),
        ])
        expect(b.text).toBe(a.text)
        const samples = samplesOf(a.text)
        const published = open.ctx.app.live.current().state
        for (const g of [...published.vms, ...published.containers]) {
          const value = samples.get(`pve_cpu_usage_ratio{id="${g.type}/${g.id}"}`)
          expect(value, g.id).toBe(g.status === 'running' ? g.cpu : undefined)
        }
      }
    } finally {
      await open.close()
    }
  })
})

describe("Pulse's own figures", () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>
  afterEach(() => ctx?.close())

  it('counts active alerts by level and type as published, and the outbox', async () => {
    ctx = await buildTestApp()
    await useNoDelays(ctx.app)
    await ctx.app.live.applyCollected(cpuPoll({ 100: 0.95, 101: 0.97, 102: 0.1 }, 1))
    const repo = createOutboxRepo(ctx.app.db)
    const schedule = createDefaultAlertConfig().schedule
    schedule.grouping.enabled = false
    enqueueEvents(repo, [fired(1), fired(2), fired(3)], schedule, [hook('a')], T0)
    // One row gives up for good: a dead letter.
    const [first] = repo.claimDue(T0)
    repo.markFailed([first!.rows[0]!.id], {
      error: 'HTTP 400',
      retryable: false,
      now: T0,
      maxAttempts: 8,
    })

    const text = (await ctx.app.http.inject({ url: '/metrics' })).body
    const alerts = ctx.app.live.current().state.activeAlerts
    expect(alerts.length).toBeGreaterThan(0)
    const expected = new Map<string, number>()
    for (const a of alerts) {
      const key = `{level="${String(a.level)}",type="${String(a.type)}"}`
      expected.set(key, (expected.get(key) ?? 0) + 1)
    }
    for (const [labels, count] of expected) {
      expect(sampleOf(text, 'pulse_alerts_active', labels), labels).toBe(count)
    }
    expect(sampleOf(text, 'pulse_notifications_queued', '')).toBe(2)
    expect(sampleOf(text, 'pulse_notification_dead_letters', '{kind="webhook"}')).toBe(1)
    expect(sampleOf(text, 'pulse_socket_clients', '')).toBe(0)
    expect(sampleOf(text, 'pulse_build_info', '{version="0.0.0-test"}')).toBe(1)
    expect(sampleOf(text, 'pulse_last_poll_timestamp_seconds', '')).toBe(
      ctx.app.live.current().state.lastUpdate / 1000,
    )
    // No endpoint is configured: no per-endpoint series (the Prometheus test polls one).
    expect(text).not.toContain('pulse_endpoint_up')
  })
})

describe('the poll figures of each endpoint', () => {
  it("counts polls and failures per endpoint, with the last poll's duration", async () => {
    const sim = await startSimulator({
      clusters: 1,
      nodesPerCluster: 1,
      guestsPerNode: 1,
      tickMs: 0,
    })
    // The poller on the loop here (the Prometheus test runs the collector thread).
    const ctx = await buildTestApp({ collectorThread: false })
    try {
      const cluster = sim.clusters[0]!
      const wrong = Array.from({ length: 32 }, () => 'AB').join(':')
      for (const [name, fingerprint] of [
        ['good', cluster.fingerprint],
        ['pinned-wrong', wrong],
      ]) {
        const payload = { type: 'pve', name, host: cluster.url, fingerprint }
        const res = await ctx.app.http.inject({
          method: 'POST',
          url: '/api/config/nodes',
          payload: { ...payload, tokenName: cluster.tokenId, tokenValue: cluster.tokenSecret },
        })
        expect(res.statusCode).toBe(201)
      }
      await ctx.app.poller.pollNow()
      const text = (await ctx.app.http.inject({ url: '/metrics' })).body
      const good = '{endpoint="good",type="pve"}'
      const bad = '{endpoint="pinned-wrong",type="pve"}'
      expect(sampleOf(text, 'pulse_endpoint_up', good)).toBe(1)
      expect(sampleOf(text, 'pulse_endpoint_up', bad)).toBe(0)
      const goodPolls = sampleOf(text, 'pulse_polls_total', good)!
      const badPolls = sampleOf(text, 'pulse_polls_total', bad)!
      expect(goodPolls).toBeGreaterThanOrEqual(1)
      expect(badPolls).toBeGreaterThanOrEqual(1)
      expect(sampleOf(text, 'pulse_poll_failures_total', good)).toBe(0)
      expect(sampleOf(text, 'pulse_poll_failures_total', bad)).toBe(badPolls)
      expect(sampleOf(text, 'pulse_poll_duration_seconds', good)).toBeGreaterThan(0)
      expect(sampleOf(text, 'pulse_poll_cycle_duration_seconds', '')).toBeGreaterThanOrEqual(0)
    } finally {
      await ctx.close()
      await sim.stop()
    }
  })
})
