// Connection tests (spec 001 §4 Test connection): a short-lived client, a few cheap reads, and the
// specific AppError of the client on failure. Nothing is stored and the client is always closed.
import { AppError } from '../../shared/model/errors.ts'
import type { NodeTestResult, NodeType } from '../../shared/model/node-config.ts'
import { isRecord } from '../collect/coerce.ts'
import { createPveClient, type PveAuth, type PveClient } from '../collect/pve-client.ts'

/** Per request: long enough for a slow WAN link, short enough for a form button. */
export const TEST_TIMEOUT_MS = 10_000

/** What a connection test needs: a normalised host and resolved credentials. */
export interface ConnectionTarget {
  type: NodeType
  host: string
  auth: PveAuth
  verifySSL: boolean
  fingerprint?: string
}

/** Test options; tests shorten the timeout to provoke PVE_TIMEOUT. */
export interface ConnectionTestOptions {
  timeoutMs?: number
}

/** Connect and read; resolves with the success answer or rejects with the client's AppError. */
export async function testConnection(
  target: ConnectionTarget,
  options: ConnectionTestOptions = {},
): Promise<NodeTestResult> {
  const timeoutMs = options.timeoutMs ?? TEST_TIMEOUT_MS
  const client = createPveClient({
    host: target.host,
    auth: target.auth,
    verifySSL: target.verifySSL,
    fingerprint: target.fingerprint,
    product: target.type,
    timeoutMs,
    maxConcurrency: 1,
  })
  let timer: ReturnType<typeof setTimeout> | undefined
  // One budget for the whole test: an abort does not interrupt a TLS handshake that hangs, so the
  // client alone could keep the form waiting for undici's own connect timeout.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new AppError('PVE_TIMEOUT', { host: new URL(target.host).host, ms: timeoutMs }))
    }, timeoutMs)
  })
  try {
    const run = target.type === 'pbs' ? testPbs(client) : testPve(client)
    run.catch(() => undefined) // settled later than the deadline: nobody listens any more
    return await Promise.race([run, deadline])
  } finally {
    clearTimeout(timer)
    // Not awaited: closing waits for a hung TLS handshake to give up, the answer must not.
    void client.close().catch(() => undefined)
  }
}

function versionOf(data: unknown): string | undefined {
  return isRecord(data) && typeof data.version === 'string' ? data.version : undefined
}

async function testPve(client: PveClient): Promise<NodeTestResult> {
  const members = await readClusterStatus(client)
  const cluster = members.find((m) => m.type === 'cluster')
  const result: NodeTestResult = {
    status: 'success',
    message: 'Connection successful',
    isCluster: cluster !== undefined,
    nodeCount: Math.max(1, members.filter((m) => m.type === 'node').length),
  }
  if (cluster && typeof cluster.name === 'string' && cluster.name) result.clusterName = cluster.name
  const version = versionOf(await client.get('/version'))
  if (version) result.version = version
  return result
}

/**
 * /cluster/status needs Sys.Audit on /. A token without it still authenticates: fall back to
 * /nodes (any user), which lists the members but not the cluster's name.
 */
async function readClusterStatus(client: PveClient): Promise<Array<Record<string, unknown>>> {
  try {
    const data = await client.get('/cluster/status')
    return Array.isArray(data) ? data.filter(isRecord) : []
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'PVE_FORBIDDEN') throw err
    const nodes = await client.get('/nodes')
    const list = Array.isArray(nodes) ? nodes.filter(isRecord) : []
    const members = list.map((n) => ({ ...n, type: 'node' }))
    // More than one member can only be a cluster; its name needs the forbidden call.
    return members.length > 1 ? [{ type: 'cluster' }, ...members] : members
  }
}

async function testPbs(client: PveClient): Promise<NodeTestResult> {
  const version = versionOf(await client.get('/version'))
  const stores = await client.get('/admin/datastore')
  const result: NodeTestResult = {
    status: 'success',
    message: 'Connection successful',
    datastoreCount: Array.isArray(stores) ? stores.length : 0,
  }
  if (version) result.version = version
  return result
}
