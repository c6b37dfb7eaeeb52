// Benchmark: the backups view (normalise + filter + group + chart buckets + window) at 1k, 10k
// and 100k backup records, seeded and realistic (see README.md "Backups"); and a live change of
// 1 % of the records merged into the worker's store and through the view, up to 1M records.
import type { StateDelta } from '../src/shared/model/messages.ts'
import {
  createEmptyState,
  type Guest,
  type GuestSnapshot,
  type PbsBackup,
  type PbsInstance,
  type PveNode,
  type StorageBackup,
} from '../src/shared/model/state.ts'
import {
  DEFAULT_BACKUPS_VIEW_REQUEST,
  type BackupsViewRequest,
} from '../src/shared/views/backups-types.ts'
import {
  createBackupsViewPipeline,
  type BackupsViewInput,
} from '../src/shared/views/backups-view.ts'
import {
  computeNodeSummary,
  createNodeSummaryView,
  type NodeSummaryInput,
} from '../src/shared/views/node-summary.ts'
import { readNormalisedBackups } from '../src/worker/view-kinds.ts'
import { createStateStore } from '../src/worker/store.ts'
import { createRandom } from './fixtures.ts'
import { getIterations, measure, type BenchResult } from './harness.ts'

const DAY = 86_400
const GIB = 1024 ** 3
const ROLES = ['web', 'db', 'cache', 'api', 'worker', 'mail', 'dns', 'proxy', 'ci', 'backup']
const NOTES = ['nightly', 'weekly full', 'before upgrade', 'pre-migration', '']

/** A backup estate with `size` records: 55 % PBS, 35 % PVE storage (a tenth of them duplicates of PBS backups), 10 % snapshots, over a year. */
export function createBackupEstate(size: number, now: number): BackupsViewInput {
  const random = createRandom(size + 11)
  const guestCount = Math.max(10, Math.round(size / 20))
  const nodeCount = Math.max(1, Math.round(guestCount / 100))
  const nodes: PveNode[] = []
  for (let n = 0; n < nodeCount; n++) {
    const name = `pve${n + 1}`
    nodes.push({ id: `lab-${name}`, name, instance: 'lab' } as PveNode)
  }
  const guests: Guest[] = []
  for (let g = 0; g < guestCount; g++) {
    const node = nodes[g % nodeCount]!
    guests.push({
      instance: 'lab',
      node: node.name,
      vmid: 100 + g,
      name: `${ROLES[g % ROLES.length]}-${g}`,
      type: random() < 0.6 ? 'qemu' : 'lxc',
    } as Guest)
  }
  const pbsCount = Math.max(1, Math.round(size / 50_000))
  const pbs = Array.from({ length: pbsCount }, (_, i) => makePbs(`pbs${i + 1}`, random))
  const pbsBackups: PbsBackup[] = []
  const storageBackups: StorageBackup[] = []
  const guestSnapshots: GuestSnapshot[] = []
  const pbsTarget = Math.round(size * 0.55)
  const storageTarget = Math.round(size * 0.35)
  const at = () => Math.floor(now - random() * 365 * DAY)
  const guestOf = () => guests[Math.floor(random() * guests.length)]!
  for (let i = 0; i < pbsTarget; i++) {
    const guest = guestOf()
    const instance = pbs[i % pbs.length]!
    const datastore = random() < 0.7 ? 'main' : 'offsite'
    const namespace = random() < 0.5 ? '' : random() < 0.5 ? 'prod' : 'prod/eu'
    const backupTime = at()
    pbsBackups.push({
      id: `${instance.name}-${datastore}-${namespace}-vm-${guest.vmid}-${backupTime}`,
      instance: instance.name,
      datastore,
      namespace,
      backupType: guest.type === 'qemu' ? 'vm' : 'ct',
      vmid: String(guest.vmid),
      backupTime,
      size: Math.floor(random() * 80 * GIB),
      protected: random() < 0.05,
      verified: random() < 0.8,
      verification: 'ok',
      encrypted: random() < 0.2,
      comment: NOTES[i % NOTES.length],
      owner: 'backup@pbs',
      files: ['index.json.blob'],
    })
  }
  for (let i = 0; i < storageTarget; i++) {
    // Every tenth one is the PVE side of a PBS backup: skipped by normalisation.
    const twin = i % 10 === 0 ? pbsBackups[i % pbsBackups.length] : undefined
    const guest = guestOf()
    const vmid = twin ? Number(twin.vmid) : guest.vmid
    const ctime = twin ? twin.backupTime : at()
    const volid = `local:backup/vzdump-${guest.type}-${vmid}-${ctime}.vma.zst`
    storageBackups.push({
      id: `lab-${guest.node}-${volid}`,
      storage: random() < 0.5 ? 'local' : 'nas-backups',
      node: guest.node,
      instance: 'lab',
      type: guest.type,
      vmid,
      ctime,
      size: Math.floor(random() * 40 * GIB),
      format: 'vma.zst',
      notes: NOTES[i % NOTES.length],
      protected: false,
      volid,
      isPBS: Boolean(twin),
      verified: false,
    })
  }
  for (let i = 0; guestSnapshots.length < size - pbsTarget - storageTarget; i++) {
    const guest = guestOf()
    guestSnapshots.push({
      id: `lab-${guest.node}-${guest.vmid}-snap${i}`,
      name: `snap${i}`,
      node: guest.node,
      instance: 'lab',
      type: guest.type,
      vmid: guest.vmid,
      time: at(),
      description: NOTES[i % NOTES.length],
      vmstate: false,
    })
  }
  return {
    storageBackups,
    guestSnapshots,
    pveReceived: true,
    pbsBackups,
    pbs,
    guests,
    nodes,
    now: now * 1000,
  }
}

function makePbs(name: string, random: () => number): PbsInstance {
  const store = (ds: string) => ({
    name: ds,
    total: 100 * GIB,
    used: 50 * GIB,
    free: 50 * GIB,
    usage: 50,
    status: 'available',
    namespaces: [],
    deduplicationFactor: 1 + random() * 5,
  })
  const partial = { name, id: `pbs-${name}`, datastores: [store('main'), store('offsite')] }
  return partial as unknown as PbsInstance
}

const request = (patch: Partial<BackupsViewRequest>): BackupsViewRequest => ({
  ...DEFAULT_BACKUPS_VIEW_REQUEST,
  ...patch,
})

/** Run the backups cases at one size. */
export function benchBackups(size: number): BenchResult[] {
  const now = Math.floor(Date.UTC(2026, 0, 15, 12) / 1000)
  const input = createBackupEstate(size, now)
  const counts = getIterations(size)
  const results: BenchResult[] = []
  // Cold: a new data set (fresh source arrays) through a fresh pipeline: normalise and everything.
  let fresh = input
  results.push(
    measure({
      name: 'backups: data change (normalise + all)',
      size,
      ...counts,
      before: () => {
        fresh = { ...input, pbsBackups: [...input.pbsBackups] }
      },
      run: () => void createBackupsViewPipeline().compute(fresh, request({})),
    }),
  )
  // The first search after a data change also builds the search text of every record.
  let loaded = createBackupsViewPipeline()
  let loadedInput = input
  results.push(
    measure({
      name: 'backups: first search after a data change',
      size,
      ...counts,
      before: () => {
        loaded = createBackupsViewPipeline()
        loadedInput = { ...input, pbsBackups: [...input.pbsBackups] }
        loaded.compute(loadedInput, request({}))
      },
      run: () => void loaded.compute(loadedInput, request({ search: 'web' })),
    }),
  )
  // Warm: data loaded, filters change as a user clicks or types.
  const pipeline = createBackupsViewPipeline()
  pipeline.compute(input, request({}))
  const steps: [string, BackupsViewRequest, BackupsViewRequest][] = [
    ['backups: type a search term', request({ search: 'web' }), request({ search: 'web-1' })],
    ['backups: view mode change', request({ viewMode: 'all' }), request({ viewMode: 'pbs' })],
    ['backups: pbs: term', request({}), request({ search: 'pbs:pbs1:main:prod' })],
    ['backups: chart range 30 → 365', request({ range: 30 }), request({ range: 365 })],
    ['backups: group by guest', request({}), request({ grouping: 'guest' })],
    [
      'backups: scroll (window only)',
      request({ window: { start: 0, count: 60 } }),
      request({ window: { start: 5000, count: 60 } }),
    ],
  ]
  for (const [name, from, to] of steps) {
    results.push(
      measure({
        name,
        size,
        ...counts,
        before: () => void pipeline.compute(input, from),
        run: () => void pipeline.compute(input, to),
      }),
    )
  }
  // The backups tab's node summary counts every record per node when backup data changes.
  let summaryInput: NodeSummaryInput = toSummaryInput(input)
  results.push(
    measure({
      name: 'backups: node summary Backups counts (data change)',
      size,
      ...counts,
      before: () => {
        summaryInput = toSummaryInput({ ...input, pbsBackups: [...input.pbsBackups] })
      },
      run: () =>
        void computeNodeSummary(summaryInput, { kind: 'nodeSummary', tab: 'backups', sort: null }),
    }),
  )
  return results
}

function toSummaryInput(input: BackupsViewInput): NodeSummaryInput {
  return {
    nodes: input.nodes,
    guests: input.guests,
    pbs: input.pbs as unknown as NodeSummaryInput['pbs'],
    storage: [],
    physicalDisks: [],
    storageBackups: input.storageBackups,
    guestSnapshots: input.guestSnapshots,
    pbsBackups: input.pbsBackups,
  }
}

/** The worker's heap with the estate loaded and the Backups tab computed (after a full GC). */
export interface BackupsHeap {
  /** Backup records. */
  records: number
  /** heapUsed after a full GC, in MB (10^6 bytes): the store, the normalised records, the views. */
  heapUsedMB: number
  /** heapUsed after a full GC before the estate was built (code and the bench itself), in MB. */
  baselineMB: number
}

/**
 * A live change of 1 % of `size` records (8 in 10 changed, 1 removed, 1 new), as a parsed delta
 * merged into the worker's real store, then the Backups view (default request) recomputed: what a
 * backup tick costs the worker with the dashboard's data already loaded. Also the heap the store
 * and the views hold once the changes are through, read by `heapMB` (bench/heap.ts: Node only,
 * this file also runs in a browser test's worker).
 */
export function benchBackupsDelta(
  size: number,
  heapMB: () => number = () => NaN,
): { cases: BenchResult[]; heap: BackupsHeap } {
  const now = Math.floor(Date.UTC(2026, 0, 15, 12) / 1000)
  const baselineMB = heapMB()
  const store = createStateStore()
  {
    // Scoped: once loaded, only what the worker holds stays reachable.
    const input = createBackupEstate(size, now)
    const state = createEmptyState(now * 1000, 'bench')
    const guestKey = (g: Guest) => (g.type === 'lxc' ? 'containers' : 'vms')
    for (const guest of input.guests) {
      state[guestKey(guest)].push({ ...guest, id: `${guest.instance}-${guest.node}-${guest.vmid}` })
    }
    state.nodes = [...input.nodes]
    state.pbs = [...input.pbs]
    // The store never changes an entity object of these (a delta replaces it): share them.
    state.storageBackups = [...input.storageBackups]
    state.guestSnapshots = [...input.guestSnapshots]
    state.pbsBackups = [...input.pbsBackups]
    store.applyFull(state as unknown as Record<string, unknown>, 0)
  }
  // What the worker computes on the Backups tab: the Backups view and the node summary's Backups
  // counts, both over the store's one shared normaliser (view-kinds.ts).
  const pipeline = createBackupsViewPipeline()
  const summary = createNodeSummaryView()
  const view = () => {
    pipeline.compute(
      {
        storageBackups: store.getCollection('storageBackups'),
        guestSnapshots: store.getCollection('guestSnapshots'),
        pveReceived: true,
        pbsBackups: store.getCollection('pbsBackups'),
        pbs: store.getCollection('pbs'),
        guests: store.getGuests(),
        nodes: store.getNodes(),
        now: now * 1000,
        normalised: () => readNormalisedBackups(store),
      },
      request({}),
    )
    summary.compute(
      {
        nodes: store.getNodes(),
        guests: store.getGuests(),
        pbs: store.getCollection('pbs'),
        storage: [],
        physicalDisks: [],
        backups: () => readNormalisedBackups(store),
      },
      { kind: 'nodeSummary', tab: 'backups', sort: null },
    )
  }
  view()
  const random = createRandom(size + 7)
  let seq = 0
  let serial = 0
  let tick = 0
  let delta: StateDelta = {}
  const changeOf = <K extends 'storageBackups' | 'guestSnapshots' | 'pbsBackups'>(key: K) => {
    const list = store.getCollection(key)
    const count = Math.max(1, Math.round(list.length / 100))
    const upsert: Record<string, unknown>[] = []
    const remove: string[] = []
    const picked = new Set<number>()
    while (picked.size < count) picked.add(Math.floor(random() * list.length))
    for (const at of picked) {
      const record = list[at]!
      // A running count, so that small estates (1 record per collection) stay balanced too.
      const roll = tick++ % 10
      if (roll === 0) remove.push(record.id)
      else if (roll === 1) {
        upsert.push({
          ...record,
          id: `${record.id}-new${serial++}`,
          size: Math.floor(random() * GIB),
        })
      } else
        upsert.push({ id: record.id, size: Math.floor(random() * GIB), protected: random() < 0.5 })
    }
    return { upsert, remove }
  }
  const results: BenchResult[] = []
  results.push(
    measure({
      name: 'backups: 1 % of records changed (store merge + views)',
      size,
      ...getIterations(size),
      before: () => {
        const parts = {
          storageBackups: changeOf('storageBackups'),
          guestSnapshots: changeOf('guestSnapshots'),
          pbsBackups: changeOf('pbsBackups'),
        }
        const built = {
          upsert: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, v.upsert])),
          remove: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, v.remove])),
        }
        // As the worker gets it: parsed from the socket's text.
        delta = JSON.parse(JSON.stringify(built)) as StateDelta
      },
      run: () => {
        store.applyDelta(delta, ++seq)
        view()
      },
    }),
  )
  delta = {}
  const heap = { records: size, heapUsedMB: heapMB(), baselineMB }
  return { cases: results, heap }
}
