// One poll of one Proxmox Backup Server: version, host status and datastore usage every cycle;
// namespaces and snapshots every CADENCE_MS.pbsContent (60 s, as the issue asks, whatever the poll
// interval) with at most CONTENT_CONCURRENCY calls in flight. A failing datastore is reported as
// such while the others still report; only a server that is down or refuses the credentials fails
// the poll.
import type { ListMapper } from './json-slices.ts'
import { AppError } from '../../shared/model/errors.ts'
import type { ErrorCode } from '../../shared/model/errors.ts'
import type {
  PbsBackup,
  PbsDatastore,
  PbsInstance,
  PbsJob,
  PbsNamespace,
} from '../../shared/model/state.ts'
import { CADENCE_MS, DEFAULT_POLL_INTERVAL_MS, isDue as isCadenceDue } from './cadence.ts'
import { createLimiter } from './limiter.ts'
import {
  createPbsJobsMemory,
  refreshPbsJobs,
  type PbsJobFlags,
  type PbsJobsMemory,
} from './pbs-jobs-poll.ts'
import type { Limiter } from './limiter.ts'
import { toPbsBackup, toPbsNamespace, toPbsNamespaces } from './pbs-backups.ts'
import { createInterner, type Interner } from './intern.ts'
import { reuseSliced } from './sliced.ts'
import {
  NO_NODE_FIGURES,
  toPbsDatastores,
  toPbsNodeFigures,
  toPbsVersion,
  type PbsNodeFigures,
} from './pbs-status.ts'

/** Namespace and snapshot calls in flight at once, across all datastores. */
export const CONTENT_CONCURRENCY = 4

// Failures that mean the server itself is gone or refuses us: the whole poll fails.
const SERVER_DOWN: ReadonlySet<ErrorCode> = new Set([
  'PVE_UNREACHABLE',
  'PVE_AUTH_REJECTED',
  'PVE_TLS_MISMATCH',
  'PVE_TLS_UNTRUSTED',
])

/** What survives between cycles for one datastore's content. */
export interface PbsStoreMemory {
  namespaces: PbsNamespace[]
  backups: PbsBackup[]
  /** Epoch ms of the last refresh attempt. */
  at: number
  /** Why the last refresh failed; the store is retried on the next cycle. */
  error?: string
}

/** What survives between cycles for one PBS. */
export interface PbsMemory {
  /** Set at the start of every poll, so markPbsDown can name an instance never reached. */
  name?: string
  host?: string
  /** Last good node-status figures, shown again while that call fails. */
  figures?: PbsNodeFigures
  stores: Map<string, PbsStoreMemory>
  /** The last result (markPbsDown keeps its backups here while the server is down). */
  last?: PbsPollResult
  /** Message of the error that last marked the instance down. */
  lastError?: string
  /** Sync, verify, prune and GC jobs (pbs-jobs-poll.ts). */
  jobs: PbsJobsMemory
  /** Shared copies of the strings and file lists snapshots repeat (intern.ts). */
  intern: Interner
}

/** Creates empty memory for a new PBS. */
export function createPbsMemory(): PbsMemory {
  return { stores: new Map(), jobs: createPbsJobsMemory(), intern: createInterner() }
}

/** Everything pollPbs needs. `call` is the client's get, wrapped for accounting. */
export interface PbsPollContext {
  /** The configured instance name. */
  instance: string
  host: string
  call(
    path: string,
    query?: Record<string, string | number>,
    signal?: AbortSignal,
    timeoutMs?: number,
    each?: ListMapper,
  ): Promise<unknown>
  memory: PbsMemory
  /** Epoch ms of this poll, from the poller's clock: the content cadence is measured in it. */
  now: number
  /** The poller's interval (default 10 s): content is never read more often than this. */
  pollIntervalMs?: number
  /** The job kinds the node's monitor flags ask for; none when absent. */
  jobs?: PbsJobFlags
  warn(obj: object, msg: string): void
}

const NO_JOBS: PbsJobFlags = { sync: false, verify: false, prune: false, gc: false }

/** What one poll produced. */
export interface PbsPollResult {
  instance: PbsInstance
  backups: PbsBackup[]
  /** Issue 26: sync, verify, prune and GC jobs (those the node's monitor flags ask for). */
  jobs: PbsJob[]
}

/** Polls one PBS and updates its memory; throws an AppError only when the server is down. */
export async function pollPbs(ctx: PbsPollContext): Promise<PbsPollResult> {
  const { memory } = ctx
  memory.name = ctx.instance
  memory.host = ctx.host
  const [version, node, usage] = await Promise.allSettled([
    ctx.call('/version'),
    ctx.call('/nodes/localhost/status'),
    ctx.call('/status/datastore-usage'),
  ])
  if (version.status === 'rejected') throw toAppError(version.reason, ctx.host)
  for (const part of [node, usage]) {
    if (part.status === 'rejected' && isServerDown(part.reason)) throw part.reason
  }
  let healthy = true
  if (node.status === 'fulfilled') memory.figures = toPbsNodeFigures(node.value)
  else {
    healthy = false
    warnFailure(ctx, node.reason, 'node status failed')
  }

  let datastores: PbsDatastore[]
  if (usage.status === 'fulfilled') {
    datastores = toPbsDatastores(usage.value)
    await refreshContent(ctx, datastores)
  } else {
    // Without the usage list we keep the stores we knew, each marked with the failure.
    healthy = false
    warnFailure(ctx, usage.reason, 'datastore usage failed')
    const message = toAppError(usage.reason, ctx.host).userMessage
    datastores = (memory.last?.instance.datastores ?? []).map((d) => ({
      ...d,
      status: 'error',
      error: message,
    }))
  }
  for (const store of datastores) {
    const content = memory.stores.get(store.name)
    store.namespaces = content?.namespaces ?? []
    if (content?.error !== undefined && store.status !== 'error') {
      store.status = 'error'
      store.error = content.error
      healthy = false
    }
  }
  const instance = toInstance(ctx, toPbsVersion(version.value), datastores, healthy)
  const backups = datastores.flatMap((d) => memory.stores.get(d.name)?.backups ?? [])
  const jobs = await refreshPbsJobs({
    instance: ctx.instance,
    host: ctx.host,
    call: (path, query) => ctx.call(path, query),
    flags: ctx.jobs ?? NO_JOBS,
    stores: datastores.map((d) => d.name),
    memory: memory.jobs,
    now: ctx.now,
    pollIntervalMs: ctx.pollIntervalMs,
    warn: ctx.warn,
  })
  memory.last = { instance, backups, jobs }
  return memory.last
}

/**
 * The last known instance marked offline with connectionHealth 'error', datastores kept, so the
 * UI keeps showing it; a skeleton when it was never reached; undefined before any poll.
 */
export function markPbsDown(memory: PbsMemory, error: unknown): PbsInstance | undefined {
  const known = memory.last?.instance
  if (known === undefined && memory.name === undefined) return undefined
  memory.lastError = error instanceof Error ? error.message : String(error)
  const instance: PbsInstance = {
    ...(known ?? skeleton(memory.name ?? '', memory.host ?? '')),
    status: 'offline',
    connectionHealth: 'error',
  }
  memory.last = { instance, backups: memory.last?.backups ?? [], jobs: memory.last?.jobs ?? [] }
  return instance
}

function skeleton(name: string, host: string): PbsInstance {
  return {
    id: `pbs-${name}`,
    name,
    host,
    status: 'offline',
    version: '',
    ...NO_NODE_FIGURES,
    datastores: [],
    connectionHealth: 'error',
    lastSeen: 0,
  }
}

function toInstance(
  ctx: PbsPollContext,
  version: string,
  datastores: PbsDatastore[],
  healthy: boolean,
): PbsInstance {
  const figures = ctx.memory.figures ?? NO_NODE_FIGURES
  return {
    id: `pbs-${ctx.instance}`,
    name: ctx.instance,
    host: ctx.host,
    status: 'online',
    version,
    ...figures,
    datastores,
    connectionHealth: healthy ? 'healthy' : 'unhealthy',
    lastSeen: ctx.now,
  }
}

// Refreshes the content of every due store; stores that vanished are forgotten.
async function refreshContent(ctx: PbsPollContext, datastores: PbsDatastore[]): Promise<void> {
  const { stores } = ctx.memory
  const present = new Set(datastores.map((d) => d.name))
  for (const name of stores.keys()) if (!present.has(name)) stores.delete(name)
  const limiter = createLimiter(CONTENT_CONCURRENCY)
  const poll = ctx.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS
  const due = datastores.filter(
    (d) => d.status !== 'error' && isDue(stores.get(d.name), ctx.now, poll),
  )
  await Promise.all(due.map((d) => refreshStore(ctx, limiter, d.name)))
}

// A failed store is retried on the next cycle; a clock that went back makes it due rather than
// never (isCadenceDue).
function isDue(content: PbsStoreMemory | undefined, now: number, pollIntervalMs: number): boolean {
  if (content === undefined || content.error !== undefined) return true
  return isCadenceDue(content.at, CADENCE_MS.pbsContent, now, pollIntervalMs)
}

const SKIPPED = Symbol('skipped')

async function refreshStore(ctx: PbsPollContext, limiter: Limiter, store: string): Promise<void> {
  const previous = ctx.memory.stores.get(store)
  const base = `/admin/datastore/${encodeURIComponent(store)}`
  try {
    const namespaces = await readNamespaces(ctx, limiter, base)
    // One snapshots call per namespace returns all its groups; after a failure the calls not
    // yet started are skipped, since the store is reported as failed anyway. A namespace can list
    // a snapshot per guest and day: each is mapped as it is parsed (PveClient.get's `each`), so
    // the raw entries are never held all at once.
    let failure = false
    const lists = await Promise.allSettled(
      namespaces.map((ns) =>
        limiter.run(async () => {
          if (failure) throw SKIPPED
          const source = { instance: ctx.instance, datastore: store, namespace: ns.path }
          try {
            return await ctx.call(
              `${base}/snapshots`,
              ns.path === '' ? undefined : { ns: ns.path },
              undefined,
              undefined,
              (entry) => toPbsBackup(entry, source, ctx.memory.intern),
            )
          } catch (err) {
            failure = true
            throw err
          }
        }),
      ),
    )
    const rejected = lists.find(
      (r): r is PromiseRejectedResult => r.status === 'rejected' && r.reason !== SKIPPED,
    )
    if (rejected !== undefined) throw rejected.reason
    // Keep the previous objects of the snapshots that did not change (sliced.ts).
    const backups: PbsBackup[] = []
    for (const list of lists) {
      if (list.status !== 'fulfilled' || !Array.isArray(list.value)) continue
      for (const backup of list.value as PbsBackup[]) backups.push(backup)
    }
    const kept = await reuseSliced(previous?.backups, backups)
    ctx.memory.stores.set(store, {
      namespaces,
      backups: kept.same && previous ? previous.backups : kept.list,
      at: ctx.now,
    })
  } catch (err) {
    const appError = toAppError(err, ctx.host)
    ctx.warn(
      { instance: ctx.instance, datastore: store, code: appError.code },
      'datastore content failed',
    )
    // Keep what we last knew of the store's content; the store itself shows the error.
    ctx.memory.stores.set(store, {
      namespaces: previous?.namespaces ?? [],
      backups: previous?.backups ?? [],
      at: ctx.now,
      error: appError.userMessage,
    })
  }
}

// PBS before 2.2 has no namespaces: a missing endpoint (404/501) means "root only".
async function readNamespaces(
  ctx: PbsPollContext,
  limiter: Limiter,
  base: string,
): Promise<PbsNamespace[]> {
  try {
    const namespaces = toPbsNamespaces(await limiter.run(() => ctx.call(`${base}/namespace`)))
    return namespaces.length > 0 ? namespaces : [toPbsNamespace('')]
  } catch (err) {
    const status = err instanceof AppError ? err.params.status : undefined
    if (status === 404 || status === 501) return [toPbsNamespace('')]
    throw err
  }
}

function isServerDown(err: unknown): boolean {
  return err instanceof AppError && SERVER_DOWN.has(err.code)
}

// A failed every-cycle call is logged with its code only (never a body or a secret).
function warnFailure(ctx: PbsPollContext, err: unknown, msg: string): void {
  ctx.warn({ instance: ctx.instance, code: toAppError(err, ctx.host).code }, msg)
}

function toAppError(err: unknown, host: string): AppError {
  if (err instanceof AppError) return err
  const reason = err instanceof Error ? err.message : 'unexpected failure'
  return new AppError('PVE_UNREACHABLE', { host, reason }, { cause: err })
}
