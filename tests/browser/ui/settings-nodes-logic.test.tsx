// The PVE and PBS tabs' pure logic (spec 001 §2, §4 Node form / Test connection / Discovery, §5
// node rules, §8 test-error prefix): form defaults and prefill, checks, payloads, the choice of
// test call, status dots, badges, discovery age and filtering, and answer normalising.
import { describe, expect, test } from 'vitest'
import {
  formatScanAge,
  hostnameOf,
  unconfiguredServers,
} from '../../../src/ui/settings/nodes/discovery.ts'
import {
  clearsSetupCommand,
  defaultNodeForm,
  formFromDiscovered,
  formFromNode,
  hostPlaceholder,
  saveProblem,
  testPlan,
  toPayload,
  type NodeForm,
} from '../../../src/ui/settings/nodes/node-form.ts'
import {
  authSummary,
  featureBadges,
  statusTone,
} from '../../../src/ui/settings/nodes/node-status.ts'
import {
  stripTestError,
  toDiscoveryStatus,
  toNodeView,
  type NodeView,
} from '../../../src/ui/settings/nodes/nodes-api.ts'
import { PBS_NODE, PVE_CLUSTER_NODE, PVE_TOKEN_NODE } from './settings-nodes-harness.ts'

const pveToken = (): NodeView => toNodeView(PVE_TOKEN_NODE)
const pveCluster = (): NodeView => toNodeView(PVE_CLUSTER_NODE)
const pbs = (): NodeView => toNodeView(PBS_NODE)

const form = (patch: Partial<NodeForm> = {}): NodeForm => ({ ...defaultNodeForm('pve'), ...patch })

describe('node form defaults and prefill (spec 001 §4 Node form)', () => {
  test('a fresh form is token auth, Quick Setup and SSL verification on', () => {
    expect(defaultNodeForm('pbs')).toEqual({
      type: 'pbs',
      name: '',
      host: '',
      authType: 'token',
      setupMode: 'auto',
      user: '',
      password: '',
      tokenName: '',
      tokenValue: '',
      fingerprint: '',
      verifySSL: true,
    })
    expect(hostPlaceholder('pve')).toBe('https://proxmox.example.com:8006')
    expect(hostPlaceholder('pbs')).toBe('https://proxmox.example.com:8007')
  })

  test('editing: password auth when the node has a password, secrets blank', () => {
    const edit = formFromNode(pveCluster())
    expect(edit).toMatchObject({
      authType: 'password',
      user: 'root@pam',
      password: '',
      tokenValue: '',
      host: 'https://127.0.0.11:8006',
      verifySSL: false,
    })
    expect(formFromNode(pveToken())).toMatchObject({
      authType: 'token',
      tokenName: 'pulse-monitor@pam!pulse-token',
      tokenValue: '',
    })
  })

  test("PBS with a token id containing '!' and no password derives the user", () => {
    expect(formFromNode(pbs()).user).toBe('pulse-monitor@pbs')
    // PVE keeps what the server said.
    expect(formFromNode(pveToken()).user).toBe('')
  })

  test('a discovered server gives host https://ip:port and its hostname as the name', () => {
    const server = {
      ip: '127.0.0.31',
      port: 8006,
      type: 'pve' as const,
      version: '8.2',
      hostname: 'pve-lab',
      release: '',
    }
    expect(formFromDiscovered(server)).toMatchObject({
      type: 'pve',
      host: 'https://127.0.0.31:8006',
      name: 'pve-lab',
      authType: 'token',
    })
    expect(formFromDiscovered({ ...server, type: 'pbs', port: 0, hostname: '' })).toMatchObject({
      host: 'https://127.0.0.31:8007',
      name: '',
    })
  })

  test('the setup command goes when the host changes or Quick Setup is left', () => {
    const before = form({ host: 'https://pve1.example.com' })
    expect(clearsSetupCommand(before, { ...before, name: 'x' })).toBe(false)
    expect(clearsSetupCommand(before, { ...before, host: 'https://pve2.example.com' })).toBe(true)
    expect(clearsSetupCommand(before, { ...before, setupMode: 'manual' })).toBe(true)
    expect(clearsSetupCommand(before, { ...before, authType: 'password' })).toBe(true)
  })
})

describe('node rules (spec 001 §5)', () => {
  test('save: host, PBS https, username in password mode, secrets only when adding', () => {
    expect(saveProblem(form(), null)).toBe('Host URL is required')
    expect(saveProblem({ ...defaultNodeForm('pbs'), host: 'http://pbs.example.com' }, null)).toBe(
      'PBS requires HTTPS',
    )
    const password = form({ host: 'pve.example.com', authType: 'password' })
    expect(saveProblem(password, null)).toBe('Username is required')
    expect(saveProblem({ ...password, user: 'root@pam' }, null)).toBe('Password is required')
    expect(saveProblem({ ...password, user: 'root@pam' }, pveCluster())).toBe('')
    const token = form({ host: 'pve.example.com' })
    expect(saveProblem(token, null)).toBe('Token ID is required')
    expect(saveProblem({ ...token, tokenName: 'pulse-token' }, null)).toBe(
      'Token ID must look like user@realm!tokenname',
    )
    expect(saveProblem({ ...token, tokenName: 'a@pam!b' }, null)).toBe('Token value is required')
    expect(saveProblem({ ...token, tokenName: 'a@pam!b' }, pveToken())).toBe('')
    // Switching an edited password node to a token needs the token's value.
    expect(saveProblem({ ...token, tokenName: 'a@pam!b' }, pveCluster())).toBe(
      'Token value is required',
    )
  })

  test('test: the spec texts for missing credentials', () => {
    expect(testPlan(form(), null)).toEqual({ kind: 'invalid', problem: 'Host URL is required' })
    const host = { host: 'https://pve.example.com:8006' }
    expect(testPlan(form({ ...host, authType: 'password', user: 'root@pam' }), null)).toEqual({
      kind: 'invalid',
      problem: 'Username and password are required',
    })
    expect(testPlan(form({ ...host, tokenName: 'a@pam!b' }), null)).toEqual({
      kind: 'invalid',
      problem: 'Token ID and token value are required',
    })
  })

  test('test: an edited node without a new secret uses the stored-node test, or the form with its id when changed', () => {
    const node = pveToken()
    expect(testPlan(formFromNode(node), node)).toEqual({ kind: 'stored', id: 'pve-1' })
    const changed = testPlan({ ...formFromNode(node), verifySSL: false }, node)
    expect(changed).toMatchObject({ kind: 'config', payload: { id: 'pve-1', verifySSL: false } })
    expect(changed.kind === 'config' && 'tokenValue' in changed.payload).toBe(false)
    const fresh = testPlan({ ...formFromNode(node), tokenValue: 'new-secret' }, node)
    expect(fresh).toMatchObject({ kind: 'config', payload: { tokenValue: 'new-secret' } })
    expect(fresh.kind === 'config' && 'id' in fresh.payload).toBe(false)
  })

  test('payload: trimmed, the chosen auth only, blank secrets left out, all flags true', () => {
    expect(
      toPayload(
        form({
          name: ' lab ',
          host: ' https://pve.example.com ',
          tokenName: ' a@pam!b ',
          tokenValue: ' s3cret ',
          user: 'ignored',
          password: 'ignored',
        }),
      ),
    ).toEqual({
      type: 'pve',
      name: 'lab',
      host: 'https://pve.example.com',
      fingerprint: '',
      verifySSL: true,
      tokenName: 'a@pam!b',
      tokenValue: 's3cret',
      monitorVMs: true,
      monitorContainers: true,
      monitorStorage: true,
      monitorBackups: true,
    })
    const pbsPayload = toPayload({
      ...defaultNodeForm('pbs'),
      authType: 'password',
      user: 'admin@pbs',
      host: 'https://pbs.example.com',
    })
    expect(pbsPayload).toEqual({
      type: 'pbs',
      name: '',
      host: 'https://pbs.example.com',
      fingerprint: '',
      verifySSL: true,
      user: 'admin@pbs',
      monitorDatastores: true,
      monitorSyncJobs: true,
      monitorVerifyJobs: true,
      monitorPruneJobs: true,
      monitorGarbageJobs: true,
    })
  })
})

describe('list summary (spec 001 §2)', () => {
  test.each([
    ['unhealthy', 'red'],
    ['error', 'red'],
    ['offline', 'red'],
    ['degraded', 'yellow'],
    ['online', 'green'],
    ['healthy', 'green'],
    ['connected', 'green'],
    ['pending', 'amber'],
    ['disconnected', 'amber'],
    ['paused', 'grey'],
    ['', 'grey'],
  ])('status %s is a %s dot', (status, tone) => {
    expect(statusTone(status)).toBe(tone)
  })

  test('badges per type, Temperature only when available; auth never shows a secret', () => {
    expect(featureBadges(pveToken())).toEqual([
      'VMs',
      'Containers',
      'Storage',
      'Backups',
      'Temperature',
    ])
    expect(featureBadges(pbs())).toEqual([
      'Datastores',
      'Sync Jobs',
      'Verify Jobs',
      'Prune Jobs',
      'Garbage Collection',
    ])
    // Issue 26: a job badge only while its flag is on (the collector then reads that kind).
    expect(featureBadges({ ...pbs(), monitorSyncJobs: false, monitorGarbageJobs: false })).toEqual([
      'Datastores',
      'Verify Jobs',
      'Prune Jobs',
    ])
    expect(authSummary(pveToken())).toBe('API token: pulse-monitor@pam!pulse-token')
    expect(authSummary(pveCluster())).toBe('User: root@pam')
  })

  test('answers are completed: spec-cased endpoints, string numbers, missing flags', () => {
    const node = toNodeView({
      id: 'x',
      type: 'pve',
      host: 'https://127.0.0.1:8006',
      isCluster: 1,
      clusterEndpoints: [{ NodeName: 'a', Host: 'h', IP: '127.0.0.2', Online: true }],
    })
    expect(node).toMatchObject({
      status: 'pending',
      verifySSL: true,
      monitorVMs: true,
      isCluster: true,
      clusterEndpoints: [{ NodeName: 'a', Host: 'h', IP: '127.0.0.2', Online: true }],
    })
    // A server from before the spec casing sent camelCase keys: read the same.
    const older = toNodeView({
      id: 'y',
      type: 'pve',
      clusterEndpoints: [{ nodeName: 'b', host: 'h2', ip: '127.0.0.3', online: false }],
    })
    expect(older.clusterEndpoints).toEqual([
      { NodeName: 'b', Host: 'h2', IP: '127.0.0.3', Online: false },
    ])
    const discovery = toDiscoveryStatus({
      servers: [{ ip: '127.0.0.5', type: 'pbs', port: '8007' }, { type: 'pve' }],
      errors: ['timeout'],
      lastResultAt: '1700000000000',
    })
    expect(discovery.servers).toEqual([{ ip: '127.0.0.5', port: 8007, type: 'pbs', version: '' }])
    expect(discovery.lastResultAt).toBe(1_700_000_000_000)
  })
})

describe('connection test errors (spec 001 §8)', () => {
  test.each([
    ['API request failed: 401 authentication failure', 'authentication failure'],
    ['API request failed: 595 Connection refused', 'Connection refused'],
    ['API request failed: 500', 'Connection failed'],
    ['Cannot reach pve.example.com: timed out.', 'Cannot reach pve.example.com: timed out.'],
    ['', 'Connection failed'],
  ])('%j shows %j', (message, shown) => {
    expect(stripTestError(message)).toBe(shown)
  })
})

describe('discovery (spec 001 §2, §4 Discovery)', () => {
  const now = Date.UTC(2025, 2, 2, 12, 0, 0)
  test.each([
    [0, ''],
    [now - 2_000, 'just now'],
    [now - 42_000, '42s ago'],
    [now - 5 * 60_000 - 10_000, '5m ago'],
    [now - 3 * 3_600_000, '3h ago'],
  ])('a scan at %i is %j', (at, text) => {
    expect(formatScanAge(at, now)).toBe(text)
  })

  test('older than a day shows the full date', () => {
    const at = now - 2 * 86_400_000
    expect(formatScanAge(at, now)).toBe(new Date(at).toLocaleString())
  })

  test('configured servers are hidden by host, IP or cluster endpoint; other types are not shown', () => {
    const server = (ip: string, type: 'pve' | 'pbs' = 'pve', hostname = '') => ({
      ip,
      port: type === 'pve' ? 8006 : 8007,
      type,
      version: '',
      hostname,
      release: '',
    })
    const nodes = [pveCluster(), toNodeView({ ...PVE_TOKEN_NODE, host: 'https://127.0.0.20:8006' })]
    const servers = [
      server('127.0.0.11'), // the cluster's host
      server('127.0.0.12'), // a cluster endpoint
      server('127.0.0.20'), // a single node's host
      server('127.0.0.30', 'pve', 'pve1.example.com'), // hostname of... nobody
      server('127.0.0.40'),
      server('127.0.0.11', 'pbs'), // a PBS on a PVE host is its own server
    ]
    expect(unconfiguredServers(servers, nodes, 'pve').map((item) => item.ip)).toEqual([
      '127.0.0.30',
      '127.0.0.40',
    ])
    expect(unconfiguredServers(servers, nodes, 'pbs').map((item) => item.ip)).toEqual([
      '127.0.0.11',
    ])
    const byName = [toNodeView({ ...PVE_TOKEN_NODE, host: 'https://PVE1.example.com:8006' })]
    expect(unconfiguredServers(servers, byName, 'pve').map((item) => item.ip)).not.toContain(
      '127.0.0.30',
    )
    expect(hostnameOf('pve.example.com:8006')).toBe('pve.example.com')
    expect(hostnameOf('https://[::1]:8006')).toBe('::1')
  })
})
