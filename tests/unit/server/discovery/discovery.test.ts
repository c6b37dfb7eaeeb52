// Discovery against real servers on loopback only: the PVE simulator and a PBS-like server. The
// scanner on 127.0.0.1 with their ephemeral ports; the app's routes on 127.0.0.5 with the standard
// ports 8006/8007 (an explicit loopback subnet), plus the stored settings.
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDiscoveryService } from '../../../../src/server/discovery/discovery-service.ts'
import type { ProbeResult } from '../../../../src/server/discovery/probe.ts'
import { scanSubnet } from '../../../../src/server/discovery/scanner.ts'
import { resolveTarget } from '../../../../src/server/discovery/subnet.ts'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import { loadCertificate } from '../../../../src/server/sim/tls.ts'
import { openDatabase } from '../../../../src/server/store/db.ts'
import { createSystemSettingsRepo } from '../../../../src/server/store/system-settings-repo.ts'
import type { AuthTestServer } from '../auth/auth-helpers.ts'
import { openEvents, startOpenServer, startPve } from '../nodes/node-helpers.ts'
import { startPbsLike, type PbsLike } from '../nodes/pbs-like.ts'
import { makeTempDir } from '../temp-dir.ts'

const LAB = '127.0.0.5'
const SIM_HOSTNAME = 'pve-simulator.localdomain'

let sim: Simulator
let cluster: SimCluster
let pbs: PbsLike
let labSim: Simulator
let labPbs: PbsLike
beforeAll(async () => {
  ;({ sim, cluster } = await startPve(1))
  pbs = await startPbsLike()
  ;({ sim: labSim } = await startPve(1, { host: LAB, port: 8006 }))
  labPbs = await startPbsLike({ host: LAB, port: 8007 })
})
afterAll(async () => {
  await Promise.all([sim.stop(), pbs.stop(), labSim.stop(), labPbs.stop()])
})

const portOf = (url: string) => Number(new URL(url).port)

/** Listen on 127.0.0.1 with an ephemeral port; returns the port and a stop function. */
async function listen(server: http.Server | https.Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => {
      server.close()
      server.closeAllConnections()
    },
  }
}

describe('scanSubnet on 127.0.0.1', () => {
  it("finds the PVE simulator and the PBS, and nothing else ('auto')", async () => {
    const certificate = await loadCertificate()
    // Other HTTPS and HTTP services on loopback that are not Proxmox.
    const other = await listen(
      https.createServer({ key: certificate.key, cert: certificate.cert }, (_req, res) => {
        res.writeHead(404).end('<html><title>Some other app</title></html>')
      }),
    )
    const plain = await listen(http.createServer((_req, res) => res.writeHead(401).end()))
    try {
      const result = await scanSubnet(resolveTarget('auto', true), {
        ports: [portOf(cluster.url), portOf(pbs.url), other.port, plain.port, 9],
      })
      expect(result.errors).toEqual([])
      expect(result.servers).toEqual(
        [
          {
            ip: '127.0.0.1',
            port: portOf(cluster.url),
            type: 'pve',
            version: 'unknown',
            hostname: SIM_HOSTNAME,
          },
          {
            ip: '127.0.0.1',
            port: portOf(pbs.url),
            type: 'pbs',
            version: '3.3.2',
            hostname: SIM_HOSTNAME,
          },
        ].sort((a, b) => a.port - b.port),
      )
    } finally {
      other.stop()
      plain.stop()
    }
  })
})

describe('discovery service', () => {
  let temp: ReturnType<typeof makeTempDir>
  let db: ReturnType<typeof openDatabase>
  beforeEach(() => {
    temp = makeTempDir()
    db = openDatabase(temp.dir)
  })
  afterEach(() => {
    db.close()
    temp.cleanup()
  })

  it('runs one scan at a time and keeps the last result', async () => {
    // A probe the test releases by hand (the real one cannot be paused mid-scan).
    const probed: string[] = []
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const probe = async (ip: string, port: number): Promise<ProbeResult> => {
      probed.push(`${ip}:${port}`)
      await gate
      return { kind: 'found', server: { ip, port, type: 'pve', version: 'unknown' } }
    }
    const events: string[] = []
    let clock = 1_000
    const discovery = createDiscoveryService({
      settings: createSystemSettingsRepo(db),
      now: () => clock,
      broadcast: (type) => events.push(type),
      scan: { probe, ports: [8006] },
    })
    const started = discovery.scan('127.0.0.8/31')
    expect(started).toMatchObject({
      scanning: true,
      subnet: '127.0.0.8/31',
      lastScanStartedAt: 1_000,
    })
    clock = 2_000
    // A second request while scanning answers the running scan's status and starts nothing.
    expect(discovery.scan('127.0.0.9/32')).toMatchObject({ scanning: true, subnet: '127.0.0.8/31' })
    release()
    await discovery.idle()
    expect(probed).toEqual(['127.0.0.8:8006', '127.0.0.9:8006'])
    expect(discovery.status()).toEqual({
      servers: [
        { ip: '127.0.0.8', port: 8006, type: 'pve', version: 'unknown' },
        { ip: '127.0.0.9', port: 8006, type: 'pve', version: 'unknown' },
      ],
      errors: [],
      scanning: false,
      subnet: '127.0.0.8/31',
      lastScanStartedAt: 1_000,
      lastResultAt: 2_000,
      enabled: false,
    })
    expect(events).toEqual(['discovery_started', 'discovery_update', 'discovery_complete'])
    await discovery.close()
  })

  it('is off by default, scans at once when enabled, and stores its settings', async () => {
    const settings = createSystemSettingsRepo(db)
    const discovery = createDiscoveryService({
      settings,
      now: () => 5_000,
      scan: { ports: [portOf(cluster.url)] },
    })
    discovery.start()
    expect(discovery.status()).toMatchObject({
      enabled: false,
      scanning: false,
      subnet: '127.0.0.1/32',
    })
    expect(discovery.settings()).toEqual({ discoveryEnabled: false, discoverySubnet: 'auto' })
    expect(discovery.configure({ discoveryEnabled: true })).toEqual({
      discoveryEnabled: true,
      discoverySubnet: 'auto',
    })
    expect(discovery.status().scanning).toBe(true)
    await discovery.idle()
    expect(discovery.status().servers).toEqual([
      expect.objectContaining({ ip: '127.0.0.1', port: portOf(cluster.url), type: 'pve' }),
    ])
    expect(settings.get('discoveryEnabled')).toBe(true)
    discovery.configure({ discoveryEnabled: false, discoverySubnet: '127.0.0.77/30' })
    expect(settings.get('discoverySubnet')).toBe('127.0.0.76/30')
    expect(discovery.status()).toMatchObject({ enabled: false, scanning: false })
    await discovery.close()
  })
})

describe('discovery and settings routes', () => {
  let server: AuthTestServer
  beforeEach(async () => {
    server = await startOpenServer()
  })
  afterEach(async () => {
    await server.close()
  })

  const lab = [
    { ip: LAB, port: 8006, type: 'pve', version: 'unknown', hostname: SIM_HOSTNAME },
    { ip: LAB, port: 8007, type: 'pbs', version: '3.3.2', hostname: SIM_HOSTNAME },
  ]

  it('answers the idle status before any scan', async () => {
    const res = await server.call('GET', '/api/discover')
    expect(res.json).toEqual({
      servers: [],
      errors: [],
      scanning: false,
      subnet: '127.0.0.1/32',
      lastScanStartedAt: 0,
      lastResultAt: 0,
      enabled: false,
    })
  })

  it('scans a typed loopback subnet in the background and announces the result', async () => {
    // A configured server is still returned (the UI hides it).
    await server.call('POST', '/api/config/nodes', {
      body: {
        type: 'pve',
        host: `${LAB}:8006`,
        user: 'root',
        password: 'simulator',
        verifySSL: false,
      },
    })
    const events = await openEvents(server.base)
    try {
      const started = await server.call('POST', '/api/discover', { body: { subnet: `${LAB}/32` } })
      expect(started.status).toBe(202)
      expect(started.json).toMatchObject({ scanning: true, subnet: `${LAB}/32` })
      expect(started.json.lastScanStartedAt).toBeGreaterThan(0)
      const updated = await events.next('discovery_update')
      expect(updated.data).toMatchObject({ scanning: false, servers: lab })
      const res = await server.call('GET', '/api/discover')
      expect(res.json).toMatchObject({
        scanning: false,
        servers: lab,
        errors: [],
        subnet: `${LAB}/32`,
      })
      expect(res.json.lastResultAt).toBeGreaterThanOrEqual(res.json.lastScanStartedAt)
    } finally {
      events.close()
    }
  })

  it("scans only 127.0.0.1 for 'auto' and refuses more than a /22", async () => {
    const auto = await server.call('POST', '/api/discover', { body: { subnet: 'auto' } })
    expect(auto.status).toBe(202)
    expect(auto.json.subnet).toBe('127.0.0.1/32')
    const big = await server.call('POST', '/api/discover', { body: { subnet: '127.0.0.0/16' } })
    expect(big.status).toBe(400)
    expect(big.json).toEqual({
      code: 'FIELD_INVALID',
      message: 'subnet: /16 is too large: scan at most a /22 (1024 addresses).',
    })
  })

  it('stores the discovery settings and scans when discovery is switched on', async () => {
    expect((await server.call('GET', '/api/system/settings')).json).toEqual({
      discoveryEnabled: false,
      discoverySubnet: 'auto',
      envOverrides: {},
      allowedOrigins: '',
      allowEmbedding: false,
      allowedEmbedOrigins: '',
      updateChannel: 'stable',
      autoUpdateEnabled: false,
      autoUpdateCheckInterval: 24,
      autoUpdateTime: '03:00',
      theme: '',
      historyRetentionMinutes: 60,
    })
    const events = await openEvents(server.base)
    try {
      const res = await server.call('POST', '/api/system/settings/update', {
        // The update channel is stored alongside (system-settings-updates.test.ts covers it).
        body: { discoveryEnabled: true, discoverySubnet: `${LAB}/32`, updateChannel: 'rc' },
      })
      expect(res.status).toBe(200)
      expect(res.json).toMatchObject({ discoveryEnabled: true, discoverySubnet: `${LAB}/32` })
      expect((await events.next('discovery_update')).data).toMatchObject({
        servers: lab,
        enabled: true,
      })
    } finally {
      events.close()
    }
    const stored = createSystemSettingsRepo(server.ctx.app.db)
    expect(stored.get('discoverySubnet')).toBe(`${LAB}/32`)
    const off = await server.call('POST', '/api/system/settings/update', {
      body: { discoveryEnabled: false, discoverySubnet: '' },
    })
    expect(off.json).toMatchObject({ discoveryEnabled: false, discoverySubnet: `${LAB}/32` })
    expect((await server.call('GET', '/api/discover')).json.enabled).toBe(false)
  })

  it.each([
    [{ discoveryEnabled: 'yes' }, 'discoveryEnabled: must be true or false.'],
    [
      { discoverySubnet: '127.0.0.0/20' },
      'discoverySubnet: /20 is too large: scan at most a /22 (1024 addresses).',
    ],
    [{ discoverySubnet: 42 }, 'discoverySubnet: must be "auto" or a CIDR subnet.'],
  ])('refuses settings %j and stores nothing', async (body, message) => {
    const res = await server.call('POST', '/api/system/settings/update', { body })
    expect(res.status).toBe(400)
    expect(res.json).toEqual({ code: 'FIELD_INVALID', message })
    expect((await server.call('GET', '/api/system/settings')).json).toMatchObject({
      discoveryEnabled: false,
      discoverySubnet: 'auto',
    })
  })
})
