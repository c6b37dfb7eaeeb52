// The slower PVE collectors of one endpoint: storage, ZFS pools, Ceph, physical disks and the raw
// backup records (reference/proxmox-api.md §2.8-2.13 and §4.2-4.3). Called once per poll cycle;
// each part refreshes on its own cadence and is served from memory in between. Every call has a
// budget and shares one limiter, so a hanging NFS storage or a sleepy node cannot stall the rest;
// a failing part keeps its last good data and warns once until it recovers.
import { AppError } from '../../shared/model/errors.ts'
import type {
  BackupTask,
  CephCluster,
  GuestSnapshot,
  PhysicalDisk,
  PveBackups,
  Storage,
  StorageBackup,
  ZfsPool,
} from '../../shared/model/state.ts'
import { createLimiter, mapLimited, type Limiter } from './limiter.ts'
import {
  planBackupListings,
  sameRecords,
  toBackupTasks,
  toGuestSnapshots,
  toStorageBackups,
} from './pve-backups.ts'
import { toCephCluster, usesCeph } from './pve-ceph.ts'
import { readSmartTemperature, toPhysicalDisks } from './pve-disks.ts'
import {
  markStorageUnknown,
  readZfsPoolNames,
  storageFromResources,
  toStorageList,
} from './pve-storage.ts'
import {
  attachZfsPools,
  readZfsPoolList,
  toZfsPool,
  toZfsPoolFromList,
  zfsPoolNameOf,
} from './pve-zfs.ts'

/** Cycles between refreshes at a 10 s poll interval. */
export const SLOW_EVERY = {
  storage: 1,
  zfs: 6,
  ceph: 3,
  /** disks/list runs SMART and can wake spun-down disks: every 5 minutes. */
  disks: 30,
  backups: 6,
  tasks: 6,
  /** Each guest's snapshot list is re-read this often; the calls are spread over the cycles. */
  snapshots: 30,
} as const
/** SMART temperatures are read on every this-many disk refreshes (every 30 min at 10 s). */
export const SMART_EVERY_DISK_ROUNDS = 6
/** At most this many disks/smart calls per SMART round; the rest rotate to later rounds. */
export const SMART_MAX_PER_ROUND = 16
/** In-flight calls of this module per endpoint. */
export const SLOW_CONCURRENCY = 4
/** Budget of one call; after it the call counts as failed (the request itself is aborted). */
export const SLOW_CALL_BUDGET_MS = 8_000
/** vzdump tasks of this many past seconds are listed. */
export const TASK_WINDOW_S = 7 * 86_400
/** Most tasks asked per node and refresh. */
export const TASK_LIMIT = 500
/** Snapshot lists fetched per cycle at least (small estates fill in one cycle). */
export const SNAPSHOT_MIN_BATCH = 10

/** One guest, as the fast poll knows it. */
export interface SlowGuest {
  vmid: number
  node: string
  type: 'qemu' | 'lxc'
  template?: boolean
}

/** Everything pollPveSlow needs; `call` is the endpoint client's get, wrapped for accounting. */
export interface PveSlowContext {
  instance: string
  call(
    path: string,
    query?: Record<string, string | number>,
    signal?: AbortSignal,
  ): Promise<unknown>
  nodes: readonly { name: string; online: boolean }[]
  guests: readonly SlowGuest[]
  /** The raw /cluster/resources list of this cycle (its storage entries are the fallback). */
  resources: readonly unknown[]
  memory: PveSlowMemory
  cycle: number
  /** Epoch ms. */
  now: number
  warn(obj: object, msg: string): void
  onCache?(hit: boolean): void
}

/** What one endpoint contributes to the live state. */
export interface PveSlowResult {
  storage: Storage[]
  cephClusters: CephCluster[]
  physicalDisks: PhysicalDisk[]
  pveBackups: PveBackups
}

interface Listed<T> {
  node: string
  list: T[]
}

interface SnapshotEntry extends Listed<GuestSnapshot> {
  cycle: number
}

/** What survives between cycles for one endpoint. Opaque to callers. */
export interface PveSlowMemory {
  running: boolean
  limiter: Limiter
  /** Keys of parts that failed and were already reported. */
  warned: Set<string>
  nodeKey: string
  /** Last good /nodes/{n}/storage per node (never the fallback). */
  storage: Map<string, Storage[]>
  /** This cycle's storage view per node: fresh, fallback or marked unknown. */
  storageView: Map<string, Storage[]>
  /** Nodes whose storage call failed this cycle: their storage is not listed either. */
  storageFailed: Set<string>
  /** zfspool storage name -> pool, from /storage. */
  zfsPoolNames: Map<string, string>
  zfs: Map<string, ZfsPool[]>
  zfsCycle: number
  ceph: CephCluster[]
  cephPools: unknown
  cephCycle: number
  /** Last good raw disks/list per node, with the epoch ms it was read. */
  disks: Map<string, { raw: unknown[]; at: number }>
  disksCycle: number
  diskRounds: number
  smartOffset: number
  /** node -> devPath -> Celsius, from the last SMART read of that disk. */
  temperatures: Map<string, Map<string, number>>
  /** `shared:<storage>` or `<node>/<storage>` -> volumes listed on `node`. */
  backups: Map<string, Listed<StorageBackup>>
  backupsCycle: number
  tasks: Map<string, BackupTask[]>
  tasksCycle: number
  /** `<type>/<vmid>` -> snapshots. */
  snapshots: Map<string, SnapshotEntry>
  result: PveSlowResult
}

/** Creates empty memory for a new endpoint. */
export function createPveSlowMemory(): PveSlowMemory {
  return {
    running: false,
    limiter: createLimiter(SLOW_CONCURRENCY),
    warned: new Set(),
    nodeKey: '',
    storage: new Map(),
    storageView: new Map(),
    storageFailed: new Set(),
    zfsPoolNames: new Map(),
    zfs: new Map(),
    zfsCycle: -Infinity,
    ceph: [],
    cephPools: undefined,
    cephCycle: -Infinity,
    disks: new Map(),
    disksCycle: -Infinity,
    diskRounds: 0,
    smartOffset: 0,
    temperatures: new Map(),
    backups: new Map(),
    backupsCycle: -Infinity,
    tasks: new Map(),
    tasksCycle: -Infinity,
    snapshots: new Map(),
    result: {
      storage: [],
      cephClusters: [],
      physicalDisks: [],
      pveBackups: { backupTasks: [], storageBackups: [], guestSnapshots: [] },
    },
  }
}

/**
 * Refreshes what is due this cycle and returns the endpoint's slow data. Safe to call every
 * cycle: while a previous run is still going, it returns the last result at once. Parts not
 * refreshed come back as the same arrays as last time.
 */
export async function pollPveSlow(ctx: PveSlowContext): Promise<PveSlowResult> {
  const m = ctx.memory
  if (m.running) return m.result
  m.running = true
  try {
    await runSlow(ctx)
  } finally {
    m.running = false
  }
  return m.result
}

async function runSlow(ctx: PveSlowContext): Promise<void> {
  const m = ctx.memory
  const nodesChanged = syncNodes(ctx)
  const [zfsCeph, disks, tasks, snapshots] = await Promise.all([
    refreshStorage(ctx).then(() =>
      Promise.all([refreshZfs(ctx), refreshCeph(ctx), refreshBackups(ctx)]),
    ),
    refreshDisks(ctx),
    refreshTasks(ctx),
    refreshSnapshots(ctx),
  ])
  const [, cephChanged, backupsChanged] = zfsCeph
  const flat = ctx.nodes.flatMap((n) => m.storageView.get(n.name) ?? [])
  const storage = attachZfsPools(flat, m.zfs, m.zfsPoolNames)
  const physicalDisks = disks || nodesChanged ? buildDisks(ctx) : m.result.physicalDisks
  const pveBackups =
    backupsChanged || tasks || snapshots || nodesChanged ? buildBackups(ctx) : m.result.pveBackups
  m.result = {
    storage,
    cephClusters: cephChanged ? m.ceph : m.result.cephClusters,
    physicalDisks,
    pveBackups,
  }
}

// ---------------------------------------------------------------------------------------------
// Calls, cadence, warnings

// Resolves with the call, or rejects with PVE_TIMEOUT once the budget is spent, even if `call`
// ignores the signal; the limiter slot is free again either way.
function request(
  ctx: PveSlowContext,
  path: string,
  query?: Record<string, string | number>,
): Promise<unknown> {
  return ctx.memory.limiter.run(async () => {
    const controller = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new AppError('PVE_TIMEOUT', { host: ctx.instance, ms: SLOW_CALL_BUDGET_MS })
        controller.abort(err)
        reject(err)
      }, SLOW_CALL_BUDGET_MS)
    })
    try {
      return await Promise.race([ctx.call(path, query, controller.signal), expired])
    } finally {
      clearTimeout(timer)
    }
  })
}

function due(ctx: PveSlowContext, last: number, every: number): boolean {
  const isDue = ctx.cycle - last >= every
  ctx.onCache?.(!isDue)
  return isDue
}

function failed(ctx: PveSlowContext, key: string, err: unknown, fields: object): void {
  if (ctx.memory.warned.has(key)) return
  ctx.memory.warned.add(key)
  const code = err instanceof AppError ? err.code : 'INTERNAL'
  ctx.warn({ instance: ctx.instance, ...fields, code }, `${key.split(':')[0]} refresh failed`)
}

function succeeded(ctx: PveSlowContext, key: string): void {
  ctx.memory.warned.delete(key)
}

function enc(value: string): string {
  return encodeURIComponent(value)
}

function onlineNodes(ctx: PveSlowContext): string[] {
  return ctx.nodes.filter((n) => n.online).map((n) => n.name)
}

// Drops everything of nodes that left the endpoint. True when the node set or their online
// flags changed, which forces the derived arrays to be rebuilt.
function syncNodes(ctx: PveSlowContext): boolean {
  const m = ctx.memory
  const key = ctx.nodes.map((n) => `${n.name}:${n.online ? 1 : 0}`).join('|')
  if (key === m.nodeKey) return false
  m.nodeKey = key
  const present = new Set(ctx.nodes.map((n) => n.name))
  for (const map of [m.storage, m.storageView, m.zfs, m.disks, m.tasks, m.temperatures]) {
    for (const node of map.keys()) if (!present.has(node)) map.delete(node)
  }
  for (const [key, entry] of m.backups) if (!present.has(entry.node)) m.backups.delete(key)
  for (const [key, entry] of m.snapshots) if (!present.has(entry.node)) m.snapshots.delete(key)
  return true
}

// ---------------------------------------------------------------------------------------------
// Storage (every cycle) and the parts that depend on it

async function refreshStorage(ctx: PveSlowContext): Promise<void> {
  const m = ctx.memory
  ctx.onCache?.(false)
  m.storageFailed.clear()
  await Promise.all(
    ctx.nodes.map(async ({ name, online }) => {
      const last = m.storage.get(name)
      if (!online) {
        const known = last ? markStorageUnknown(last) : undefined
        m.storageView.set(name, known ?? storageFromResources(ctx.resources, ctx.instance, name))
        return
      }
      try {
        const raw = await request(ctx, `/nodes/${enc(name)}/storage`)
        const list = toStorageList(raw, { instance: ctx.instance, node: name })
        m.storage.set(name, list)
        m.storageView.set(name, list)
        succeeded(ctx, `storage:${name}`)
      } catch (err) {
        failed(ctx, `storage:${name}`, err, { node: name })
        m.storageFailed.add(name)
        const fallback = storageFromResources(ctx.resources, ctx.instance, name, last)
        m.storageView.set(name, fallback.length > 0 ? fallback : (last ?? []))
      }
    }),
  )
}

function viewHas(ctx: PveSlowContext, test: (s: Storage) => boolean): boolean {
  for (const list of ctx.memory.storageView.values()) if (list.some(test)) return true
  return false
}

async function refreshZfs(ctx: PveSlowContext): Promise<boolean> {
  const m = ctx.memory
  if (!due(ctx, m.zfsCycle, SLOW_EVERY.zfs)) return false
  m.zfsCycle = ctx.cycle
  if (!viewHas(ctx, (s) => s.type === 'zfspool')) {
    m.zfs.clear()
    return true
  }
  try {
    m.zfsPoolNames = readZfsPoolNames(await request(ctx, '/storage'))
    succeeded(ctx, 'zfs:config')
  } catch (err) {
    // Without the config, pools are matched on the storage name (or the last config).
    failed(ctx, 'zfs:config', err, {})
  }
  await Promise.all(onlineNodes(ctx).map((node) => refreshNodeZfs(ctx, node)))
  return true
}

// Only pools that back an available zfspool storage of the node are read in detail.
async function refreshNodeZfs(ctx: PveSlowContext, node: string): Promise<void> {
  const m = ctx.memory
  const wanted = new Set(
    (m.storageView.get(node) ?? [])
      .filter((s) => s.type === 'zfspool' && s.status === 'available')
      .map((s) => zfsPoolNameOf(s, m.zfsPoolNames)),
  )
  if (wanted.size === 0) {
    m.zfs.delete(node)
    return
  }
  const last = m.zfs.get(node) ?? []
  try {
    const pools = readZfsPoolList(await request(ctx, `/nodes/${enc(node)}/disks/zfs`))
    succeeded(ctx, `zfs:${node}`)
    const names = [...pools.keys()].filter((p) => wanted.has(p)).sort()
    const mapped = await Promise.all(
      names.map(async (name) => {
        const health = pools.get(name) ?? 'UNKNOWN'
        try {
          const detail = await request(ctx, `/nodes/${enc(node)}/disks/zfs/${enc(name)}`)
          succeeded(ctx, `zfs:${node}/${name}`)
          return toZfsPool(detail, name, health)
        } catch (err) {
          failed(ctx, `zfs:${node}/${name}`, err, { node, pool: name })
          return last.find((p) => p.name === name) ?? toZfsPoolFromList(name, health)
        }
      }),
    )
    m.zfs.set(node, mapped)
  } catch (err) {
    failed(ctx, `zfs:${node}`, err, { node })
  }
}

// Ceph paths answer 500 on clusters without Ceph: only asked when rbd or cephfs storage exists.
async function refreshCeph(ctx: PveSlowContext): Promise<boolean> {
  const m = ctx.memory
  if (!due(ctx, m.cephCycle, SLOW_EVERY.ceph)) return false
  m.cephCycle = ctx.cycle
  const types = [...m.storageView.values()].flatMap((list) => list.map((s) => s.type))
  if (!usesCeph(ctx.resources, types)) {
    const changed = m.ceph.length > 0
    m.ceph = []
    m.cephPools = undefined
    return changed
  }
  const node = onlineNodes(ctx)[0]
  if (!node) return false
  const [status, pools] = await Promise.all([readCephStatus(ctx, node), readCephPools(ctx, node)])
  m.cephPools = pools
  if (status === undefined) return false
  const cluster = toCephCluster(status, pools, { instance: ctx.instance, now: ctx.now })
  m.ceph = cluster ? [cluster] : []
  return true
}

// Pool usage is optional: on failure the last good list is reused.
async function readCephPools(ctx: PveSlowContext, node: string): Promise<unknown> {
  try {
    const pools = await request(ctx, `/nodes/${enc(node)}/ceph/pool`)
    succeeded(ctx, 'ceph:pools')
    return pools
  } catch (err) {
    failed(ctx, 'ceph:pools', err, { node })
    return ctx.memory.cephPools
  }
}

async function readCephStatus(ctx: PveSlowContext, node: string): Promise<unknown> {
  try {
    const status = await request(ctx, '/cluster/ceph/status')
    succeeded(ctx, 'ceph:status')
    return status
  } catch {
    // Older releases, or a token limited to one node: ask that node directly.
    try {
      const status = await request(ctx, `/nodes/${enc(node)}/ceph/status`)
      succeeded(ctx, 'ceph:status')
      return status
    } catch (err) {
      failed(ctx, 'ceph:status', err, { node })
      return undefined
    }
  }
}

// Listings that cannot be made now (node offline, storage inactive) keep their last volumes;
// storage that no longer exists drops them.
async function refreshBackups(ctx: PveSlowContext): Promise<boolean> {
  const m = ctx.memory
  if (!due(ctx, m.backupsCycle, SLOW_EVERY.backups)) return false
  m.backupsCycle = ctx.cycle
  // A node whose storage call just failed (often a hanging mount) would fail the listing too.
  const nodes = ctx.nodes.map((n) => ({ ...n, online: n.online && !m.storageFailed.has(n.name) }))
  const plan = planBackupListings(nodes, (node) => m.storageView.get(node))
  let changed = false
  for (const key of m.backups.keys()) {
    if (!plan.has(key) && m.backups.delete(key)) changed = true
  }
  await Promise.all(
    [...plan].map(async ([key, { node, storage }]) => {
      if (!node) return
      try {
        const path = `/nodes/${enc(node)}/storage/${enc(storage.name)}/content`
        const raw = await request(ctx, path, { content: 'backup' })
        const { instance } = ctx
        const list = toStorageBackups(raw, {
          instance,
          node,
          storage: storage.name,
          storageType: storage.type,
        })
        const previous = m.backups.get(key)
        if (!previous || previous.node !== node || !sameRecords(previous.list, list)) {
          m.backups.set(key, { node, list })
          changed = true
        }
        succeeded(ctx, `backups:${key}`)
      } catch (err) {
        failed(ctx, `backups:${key}`, err, { node, storage: storage.name })
      }
    }),
  )
  return changed
}

// ---------------------------------------------------------------------------------------------
// Disks, tasks, snapshots (independent of storage)

async function refreshDisks(ctx: PveSlowContext): Promise<boolean> {
  const m = ctx.memory
  if (!due(ctx, m.disksCycle, SLOW_EVERY.disks)) return false
  m.disksCycle = ctx.cycle
  const smartRound = m.diskRounds % SMART_EVERY_DISK_ROUNDS === 0
  m.diskRounds++
  await Promise.all(
    onlineNodes(ctx).map(async (node) => {
      try {
        const raw = await request(ctx, `/nodes/${enc(node)}/disks/list`)
        m.disks.set(node, { raw: Array.isArray(raw) ? raw : [], at: ctx.now })
        succeeded(ctx, `disks:${node}`)
      } catch (err) {
        failed(ctx, `disks:${node}`, err, { node })
      }
    }),
  )
  if (smartRound) await refreshTemperatures(ctx)
  return true
}

// Bounded and rotating: at most SMART_MAX_PER_ROUND calls, continuing where the last round ended.
async function refreshTemperatures(ctx: PveSlowContext): Promise<void> {
  const m = ctx.memory
  const online = new Set(onlineNodes(ctx))
  const disks = buildDisks(ctx).filter((d) => online.has(d.node))
  if (disks.length === 0) return
  const count = Math.min(SMART_MAX_PER_ROUND, disks.length)
  const start = m.smartOffset % disks.length
  const batch = Array.from({ length: count }, (_, i) => disks[(start + i) % disks.length]!)
  m.smartOffset = (start + count) % disks.length
  await mapLimited(batch, SLOW_CONCURRENCY, async ({ node, devPath }) => {
    try {
      const smart = await request(ctx, `/nodes/${enc(node)}/disks/smart`, { disk: devPath })
      const celsius = readSmartTemperature(smart)
      let temps = m.temperatures.get(node)
      if (!temps) m.temperatures.set(node, (temps = new Map()))
      if (celsius === undefined) temps.delete(devPath)
      else temps.set(devPath, celsius)
      succeeded(ctx, `smart:${node}`)
    } catch (err) {
      failed(ctx, `smart:${node}`, err, { node, disk: devPath })
    }
  })
}

function buildDisks(ctx: PveSlowContext): PhysicalDisk[] {
  const m = ctx.memory
  return ctx.nodes.flatMap(({ name: node }) => {
    const read = m.disks.get(node)
    if (!read) return []
    const diskCtx = { instance: ctx.instance, node, now: read.at }
    return toPhysicalDisks(read.raw, diskCtx, m.temperatures.get(node))
  })
}

async function refreshTasks(ctx: PveSlowContext): Promise<boolean> {
  const m = ctx.memory
  if (!due(ctx, m.tasksCycle, SLOW_EVERY.tasks)) return false
  m.tasksCycle = ctx.cycle
  const since = Math.floor(ctx.now / 1000) - TASK_WINDOW_S
  const query = { typefilter: 'vzdump', since, limit: TASK_LIMIT, source: 'all' }
  let changed = false
  await Promise.all(
    onlineNodes(ctx).map(async (node) => {
      try {
        const raw = await request(ctx, `/nodes/${enc(node)}/tasks`, query)
        const list = toBackupTasks(raw, ctx.instance, node)
        if (!sameRecords(m.tasks.get(node), list)) {
          m.tasks.set(node, list)
          changed = true
        }
        succeeded(ctx, `tasks:${node}`)
      } catch (err) {
        failed(ctx, `tasks:${node}`, err, { node })
      }
    }),
  )
  return changed
}

// Spread: each cycle reads the lists older than SLOW_EVERY.snapshots cycles (or never read), at
// most max(SNAPSHOT_MIN_BATCH, guests / SLOW_EVERY.snapshots) of them. Templates are skipped.
async function refreshSnapshots(ctx: PveSlowContext): Promise<boolean> {
  const m = ctx.memory
  const online = new Set(onlineNodes(ctx))
  const present = new Set<string>()
  let changed = false
  const candidates: SlowGuest[] = []
  for (const guest of ctx.guests) {
    if (guest.template) continue
    const key = `${guest.type}/${guest.vmid}`
    present.add(key)
    let entry = m.snapshots.get(key)
    if (entry && entry.node !== guest.node) {
      m.snapshots.delete(key) // migrated: the old ids name the old node
      changed = true
      entry = undefined
    }
    if (online.has(guest.node) && (!entry || ctx.cycle - entry.cycle >= SLOW_EVERY.snapshots)) {
      candidates.push(guest)
    }
  }
  for (const key of m.snapshots.keys()) {
    if (!present.has(key) && m.snapshots.delete(key)) changed = true
  }
  const cap = Math.max(SNAPSHOT_MIN_BATCH, Math.ceil(present.size / SLOW_EVERY.snapshots))
  const batch = candidates.slice(0, cap)
  ctx.onCache?.(batch.length === 0)
  const results = await Promise.all(batch.map((guest) => refreshGuestSnapshots(ctx, guest)))
  return changed || results.includes(true)
}

// True when the guest's list changed. A failure keeps the last list until the next round.
async function refreshGuestSnapshots(ctx: PveSlowContext, guest: SlowGuest): Promise<boolean> {
  const m = ctx.memory
  const key = `${guest.type}/${guest.vmid}`
  const previous = m.snapshots.get(key)
  const { node, type, vmid } = guest
  try {
    const raw = await request(ctx, `/nodes/${enc(node)}/${type}/${vmid}/snapshot`)
    const list = toGuestSnapshots(raw, { instance: ctx.instance, node, type, vmid })
    const same = previous !== undefined && sameRecords(previous.list, list)
    m.snapshots.set(key, { node, cycle: ctx.cycle, list: same ? previous.list : list })
    succeeded(ctx, `snapshots:${node}`)
    return !same
  } catch (err) {
    m.snapshots.set(key, { node, cycle: ctx.cycle, list: previous?.list ?? [] })
    failed(ctx, `snapshots:${node}`, err, { node, vmid })
    return false
  }
}

function buildBackups(ctx: PveSlowContext): PveBackups {
  const m = ctx.memory
  return {
    backupTasks: ctx.nodes.flatMap((n) => m.tasks.get(n.name) ?? []),
    storageBackups: [...m.backups.values()].flatMap((e) => e.list),
    guestSnapshots: [...m.snapshots.values()].flatMap((e) => e.list),
  }
}
