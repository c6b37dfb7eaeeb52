// Live checks of one PVE or PBS endpoint for the Diagnostics tab: a fresh client (the poller's
// pooled connections would hide a broken handshake), a few cheap reads with a short timeout, and
// one overall deadline, because an abort does not interrupt a TLS handshake that hangs.
import { AppError } from '../../shared/model/errors.ts'
import type {
  PbsDiagnostics,
  PermissionCheck,
  PhysicalDiskCheck,
  PveDiagnostics,
  VmDiskCheck,
} from '../../shared/model/diagnostics.ts'
import { isRecord } from '../collect/coerce.ts'
import { createPveClient, type PveClient } from '../collect/pve-client.ts'
import type { MonitoredEndpoint } from '../collect/poller.ts'

/** Per request. */
export const CHECK_REQUEST_MS = 5_000
/** Whole endpoint: its requests partly run in parallel, a few in sequence. */
export const CHECK_DEADLINE_MS = 20_000

/** Timeouts; tests shorten them. */
export interface CheckOptions {
  requestMs?: number
  deadlineMs?: number
}

type Base = Pick<PveDiagnostics, 'id' | 'name' | 'host' | 'authMethod'>

const messageOf = (err: unknown): string =>
  err instanceof AppError ? err.userMessage : 'Unexpected error'

function records(data: unknown): Array<Record<string, unknown>> {
  return Array.isArray(data) ? data.filter(isRecord) : []
}

function versionOf(data: unknown): string | undefined {
  return isRecord(data) && typeof data.version === 'string' ? data.version : undefined
}

async function withClient<T>(
  endpoint: MonitoredEndpoint,
  options: CheckOptions,
  run: (client: PveClient) => Promise<T>,
): Promise<T> {
  const requestMs = options.requestMs ?? CHECK_REQUEST_MS
  const deadlineMs = options.deadlineMs ?? CHECK_DEADLINE_MS
  const client = createPveClient({
    host: endpoint.host,
    auth: endpoint.auth,
    verifySSL: endpoint.verifySSL,
    fingerprint: endpoint.fingerprint,
    product: endpoint.type,
    timeoutMs: requestMs,
    maxConcurrency: 4,
  })
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new AppError('PVE_TIMEOUT', { host: new URL(endpoint.host).host, ms: deadlineMs }))
    }, deadlineMs)
  })
  try {
    const work = run(client)
    work.catch(() => undefined) // settled after the deadline: nobody listens any more
    return await Promise.race([work, deadline])
  } finally {
    clearTimeout(timer)
    void client.close().catch(() => undefined)
  }
}

/** The privilege guest agent reads need on this PVE major version. */
export function agentPermissionFor(version: string | undefined): string {
  const major = Number.parseInt(version ?? '', 10)
  return Number.isFinite(major) && major >= 9 ? 'VM.GuestAgent.Audit' : 'VM.Monitor'
}

/** Check a PVE endpoint: version, members, guest agent, backup listing and physical disks. */
export async function checkPve(
  base: Base,
  endpoint: MonitoredEndpoint,
  options: CheckOptions = {},
): Promise<PveDiagnostics> {
  const result: PveDiagnostics = { ...base, type: 'pve', connected: false }
  try {
    await withClient(endpoint, options, async (client) => {
      const version = versionOf(await client.get('/version'))
      const members = records(await client.get('/nodes'))
      result.connected = true
      result.details = { node_count: members.length, ...(version ? { version } : {}) }
      const online = members
        .filter((m) => m.status !== 'offline' && typeof m.node === 'string')
        .map((m) => m.node as string)
      // Independent reads: together, never one after another.
      const [cluster, vmDiskCheck, backupListing, physicalDisks] = await Promise.all([
        readCluster(client),
        checkGuestAgent(client, version),
        checkBackupListing(client, online),
        checkPhysicalDisks(client, online),
      ])
      if (cluster) result.clusterInfo = cluster
      result.vmDiskCheck = vmDiskCheck
      result.backupListing = backupListing
      result.physicalDisks = physicalDisks
    })
  } catch (err) {
    result.error = messageOf(err)
  }
  return result
}

async function readCluster(client: PveClient): Promise<PveDiagnostics['clusterInfo']> {
  try {
    const status = records(await client.get('/cluster/status'))
    const cluster = status.find((m) => m.type === 'cluster')
    if (!cluster) return undefined
    const nodes = status.filter((m) => m.type === 'node').length
    return typeof cluster.name === 'string' ? { name: cluster.name, nodes } : { nodes }
  } catch {
    return undefined // needs Sys.Audit; the disk check reports that permission
  }
}

const ok = (message: string): PermissionCheck => ({ status: 'ok', message })
const failed = (message: string): PermissionCheck => ({ status: 'failed', message })
const skipped = (message: string): PermissionCheck => ({ status: 'skipped', message })
const forbidden = (err: unknown) => err instanceof AppError && err.code === 'PVE_FORBIDDEN'

// A VM whose agent is off or hanging says nothing about permissions: try a few.
const AGENT_CANDIDATES = 3

async function checkGuestAgent(
  client: PveClient,
  version: string | undefined,
): Promise<VmDiskCheck> {
  const permission = agentPermissionFor(version)
  const vms = records(await client.get('/cluster/resources', { type: 'vm' })).filter(
    (r) => r.type === 'qemu' && r.template !== 1,
  )
  const running = vms.filter((r) => r.status === 'running').slice(0, AGENT_CANDIDATES)
  const check: VmDiskCheck = {
    vmsFound: vms.length,
    permission,
    testResult: skipped('No running VM to test the guest agent with'),
  }
  for (const vm of running) {
    const vmid = Number(vm.vmid)
    check.testVMID = vmid
    if (typeof vm.name === 'string') check.testVMName = vm.name
    try {
      await client.get(`/nodes/${String(vm.node)}/qemu/${vmid}/agent/get-fsinfo`)
      check.testResult = ok('Guest agent disk usage readable')
      return check
    } catch (err) {
      if (forbidden(err)) {
        check.testResult = failed(`Guest agent reads need ${permission}: ${messageOf(err)}`)
        return check
      }
      check.testResult = skipped(`Guest agent did not answer: ${messageOf(err)}`)
    }
  }
  return check
}

/**
 * List the backups of every backup storage the token can see: local storage on each online node,
 * shared storage once (it lists the same files from every node). One storage's count said
 * nothing true about a cluster whose backups sit on another ('local (0 found)' beside 7,400).
 */
async function checkBackupListing(client: PveClient, nodes: string[]): Promise<PermissionCheck> {
  if (nodes.length === 0) return skipped('No online node')
  try {
    const shared = new Set<string>()
    const lists: Array<{ node: string; storage: string }> = []
    for (const node of nodes) {
      const stores = records(await client.get(`/nodes/${node}/storage`, { content: 'backup' }))
      for (const store of stores) {
        if (typeof store.storage !== 'string') continue
        if (Number(store.shared) === 1) {
          if (shared.has(store.storage)) continue
          shared.add(store.storage)
        }
        lists.push({ node, storage: store.storage })
      }
    }
    if (lists.length === 0) return skipped('No storage with backup content')
    let found = 0
    for (const { node, storage } of lists) {
      const path = `/nodes/${node}/storage/${encodeURIComponent(storage)}/content`
      found += records(await client.get(path, { content: 'backup' })).length
    }
    const names = new Set(lists.map((list) => list.storage))
    const where =
      names.size === 1 ? [...names][0]! : `${names.size} storages on ${nodes.length} nodes`
    return ok(`Backups listed on ${where} (${found.toLocaleString('en-US')} found)`)
  } catch (err) {
    if (forbidden(err)) return failed(`Listing backups needs Datastore.Audit: ${messageOf(err)}`)
    return failed(messageOf(err))
  }
}

async function checkPhysicalDisks(client: PveClient, nodes: string[]): Promise<PhysicalDiskCheck> {
  const results = await Promise.allSettled(
    nodes.map((node) => client.get(`/nodes/${node}/disks/list`)),
  )
  const check: PhysicalDiskCheck = {
    nodesChecked: nodes.length,
    nodesWithDisks: 0,
    totalDisks: 0,
    testResult: nodes.length ? ok('Physical disks readable') : skipped('No online node'),
  }
  for (const r of results) {
    if (r.status === 'fulfilled') {
      const disks = records(r.value).length
      check.totalDisks += disks
      if (disks > 0) check.nodesWithDisks += 1
    } else {
      check.testResult = forbidden(r.reason)
        ? failed(`Physical disks need Sys.Audit: ${messageOf(r.reason)}`)
        : failed(messageOf(r.reason))
    }
  }
  return check
}

/** Check a PBS endpoint: version and datastores. */
export async function checkPbs(
  base: Base,
  endpoint: MonitoredEndpoint,
  options: CheckOptions = {},
): Promise<PbsDiagnostics> {
  const result: PbsDiagnostics = { ...base, type: 'pbs', connected: false }
  try {
    await withClient(endpoint, options, async (client) => {
      const version = versionOf(await client.get('/version'))
      const stores = await client.get('/admin/datastore')
      result.connected = true
      result.details = { datastores: records(stores).length, ...(version ? { version } : {}) }
    })
  } catch (err) {
    result.error = messageOf(err)
  }
  return result
}
