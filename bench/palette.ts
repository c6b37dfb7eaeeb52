// Benchmark: the command palette's search (issue 28 item 6), the function the worker's `palette`
// call runs (src/worker/palette.ts) over a worker store holding the estate of `alerts.ts` with 5 %
// of the running guests crossing cpu and memory (two alerts each), three storage pools per node
// and a shared one per cluster, and four backup servers of three datastores. Warm: the sources
// are built (once per version of a list); cold: the guest list changed just before the keystroke.
import type { Alert } from '../src/shared/model/alerts.ts'
import type { PbsInstance } from '../src/shared/model/backups.ts'
import type { State } from '../src/shared/model/state.ts'
import type { Storage } from '../src/shared/model/storage.ts'
import { evaluate } from '../src/server/alerts/evaluate.ts'
import { createEngineState } from '../src/server/alerts/engine-types.ts'
import { createPaletteSearch } from '../src/worker/palette.ts'
import { createStateStore } from '../src/worker/store.ts'
import { benchAlertsInputs } from './alerts.ts'
import { measure, type BenchResult } from './harness.ts'

/** One typed query and what it exercises. */
export interface PaletteQuery {
  id: string
  query: string
  covers: string
}

const GIB = 1024 ** 3

function pool(instance: string, node: string, name: string, type: string, shared: boolean) {
  const total = 1000 * GIB
  return {
    id: `${instance}-${node}-${name}`,
    name,
    node,
    instance,
    type,
    content: 'images,rootdir',
    status: 'available',
    shared,
    enabled: true,
    active: true,
    total,
    used: total / 2,
    free: total / 2,
    usage: 50,
  } satisfies Storage
}

function withStorageAndPbs(state: State): State {
  const storage: Storage[] = []
  const clusters = new Set<string>()
  for (const node of state.nodes) {
    storage.push(pool(node.instance, node.name, 'local', 'dir', false))
    storage.push(pool(node.instance, node.name, 'local-lvm', 'lvmthin', false))
    storage.push(pool(node.instance, node.name, 'local-zfs', 'zfspool', false))
    if (!clusters.has(node.instance)) {
      clusters.add(node.instance)
      storage.push(pool(node.instance, node.name, `ceph-${node.instance}`, 'rbd', true))
    }
  }
  const pbs = Array.from({ length: 4 }, (_, i) => ({
    id: `pbs-backup${i + 1}`,
    name: `backup${i + 1}`,
    host: `https://backup${i + 1}.example.com:8007`,
    status: 'online' as const,
    version: '3.3.2',
    cpu: 10,
    memory: 40,
    memoryUsed: 16 * GIB,
    memoryTotal: 40 * GIB,
    uptime: 1e6,
    datastores: ['main', 'offsite', 'archive'].map((name) => ({
      name,
      total: 100_000 * GIB,
      used: 40_000 * GIB,
      free: 60_000 * GIB,
      usage: 40,
      status: 'available',
      namespaces: [],
    })),
    connectionHealth: 'healthy' as const,
    lastSeen: 1_760_000_000_000,
  })) satisfies PbsInstance[]
  return { ...state, storage, pbs }
}

/** The queries at one size: typing a name one character at a time, a VMID, a node, nothing. */
export function paletteQueries(state: State): PaletteQuery[] {
  const guests = [...state.vms, ...state.containers]
  const guest = guests[Math.floor(guests.length * 0.73)]!
  const node = state.nodes.at(-1)!
  return [
    { id: '1-char', query: 'w', covers: 'one character: a quarter of the names hold it' },
    { id: '2-chars', query: 'we', covers: 'two characters' },
    { id: '3-chars', query: 'web', covers: 'a role: a tenth of the guests by prefix' },
    { id: 'name', query: guest.name, covers: 'a whole guest name' },
    { id: 'vmid', query: String(guest.vmid), covers: 'a VMID (exact, and the VMIDs it starts)' },
    { id: 'node', query: node.name, covers: "a node's name: the node and its guests" },
    { id: 'none', query: 'zqxj', covers: 'no match anywhere' },
  ]
}

/** Iterations: the search is cheap, so enough samples for a meaningful p95 at every size. */
function iterationsOf(size: number) {
  return size >= 100_000 ? { warmup: 10, iterations: 100 } : { warmup: 30, iterations: 300 }
}

/** The palette cases at one estate size. */
export function benchPalette(size: number): BenchResult[] {
  const { crossed, config } = benchAlertsInputs(size)
  const alerts: Alert[] = [
    ...evaluate(crossed, config, crossed.lastUpdate, createEngineState()).next.active.values(),
  ]
  const state = withStorageAndPbs({ ...crossed, activeAlerts: alerts })
  const raw = JSON.parse(JSON.stringify(state)) as Record<string, unknown>
  const store = createStateStore()
  store.applyFull(raw, 0)
  const search = createPaletteSearch(store)
  const counts = iterationsOf(size)
  const results: BenchResult[] = []
  for (const { id, query } of paletteQueries(state)) {
    results.push(
      measure({ name: `${id} "${query}"`, size, ...counts, run: () => search({ query }) }),
    )
  }
  // Cold: a full state replaced the guests (new list), so this keystroke builds their source.
  const vms = JSON.stringify(state.vms)
  results.push(
    measure({
      name: 'cold "web" (guest list rebuilt)',
      size,
      warmup: 2,
      iterations: size >= 100_000 ? 20 : 60,
      before: () => store.applyFull({ vms: JSON.parse(vms) as unknown[] }),
      run: () => search({ query: 'web' }),
    }),
  )
  return results
}
