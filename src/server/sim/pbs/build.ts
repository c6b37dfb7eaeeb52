// Builds one simulated PBS instance: the host, two datastores ('main' nightly, 'offsite' weekly),
// their namespaces, and one backup group per guest with a plausible job slot, archives and sizes.

import { planStoreFill } from './history.ts'
import { createHex, createRng, deriveSeed } from '../prng.ts'
import type { Rng } from '../prng.ts'
import type {
  BackupType,
  PbsSimModel,
  Retention,
  SimArchive,
  SimGroup,
  SimNamespace,
  SimPbsGuest,
  SimPbsHost,
  SimStore,
} from './model.ts'
import { inventGuests, pickNamespace } from './guests.ts'
import { DAY_SEC } from './schedule.ts'
import { measureStore } from './store-view.ts'

const GIB = 1024 ** 3
const HOUR = 3600

/** Inputs of one instance. */
export interface PbsBuildOptions {
  seed: number
  index: number
  nowMs: number
  guests?: readonly SimPbsGuest[]
  hostBackups: readonly string[]
  /** Owner of the production backups (the configured API token). */
  tokenId: string
}

// Namespace layout of 'main': job start (s after UTC midnight) and retention per namespace.
const MAIN_NAMESPACES = [
  { path: '', start: 21 * HOUR + 1800, retention: { daily: 7, weekly: 3 } },
  { path: 'prod', comment: 'Production cluster', start: HOUR, retention: { daily: 7, weekly: 4 } },
  {
    path: 'prod/db',
    comment: 'Databases, kept longer',
    start: 1800,
    retention: { daily: 14, weekly: 2 },
  },
  { path: 'lab', comment: 'Lab and test guests', start: 22 * HOUR, retention: { daily: 5 } },
] as const

/** Builds the model of instance `index` at `nowMs`. */
export function buildPbsModel(options: PbsBuildOptions): PbsSimModel {
  const seed = deriveSeed(options.seed, 7000 + options.index)
  const rng = createRng(seed)
  const baseDay = Math.floor(options.nowMs / 1000 / DAY_SEC)
  const guests = dedupeGuests(options.guests ?? inventGuests(rng, 50))
  const host = buildHost(rng, options.index, options.nowMs)
  const main = buildMain(rng, guests, options, baseDay)
  const offsite = buildOffsite(rng, main, options.hostBackups)
  const stores = [main, offsite]
  ensureVariety(rng, stores, baseDay)
  for (const store of stores) sizeStore(rng, store, baseDay, options.nowMs)
  planStoreFill(main, seed, baseDay, options.nowMs / 1000)
  return {
    name: `pbs${options.index + 1}`,
    index: options.index,
    seed,
    revision: 0,
    nowMs: options.nowMs,
    baseDay,
    host,
    stores,
    failing: new Map(),
  }
}

// One PBS group per (type, id) and namespace: duplicate VMIDs from several clusters collapse.
function dedupeGuests(guests: readonly SimPbsGuest[]): SimPbsGuest[] {
  const seen = new Set<string>()
  return guests.filter((g) => {
    const key = `${g.type}/${g.vmid}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function buildHost(rng: Rng, index: number, nowMs: number): SimPbsHost {
  const cpus = rng.pick([8, 12, 16, 24])
  return {
    hostname: `pbs${index + 1}`,
    cpuModel: rng.pick([
      'AMD EPYC 4344P 8-Core Processor',
      'Intel(R) Xeon(R) E-2388G CPU @ 3.20GHz',
      'Intel(R) Xeon(R) Silver 4314 CPU @ 2.40GHz',
    ]),
    sockets: cpus > 16 ? 2 : 1,
    cpus,
    memTotal: rng.pick([32, 64, 128]) * GIB,
    swapTotal: 8 * GIB,
    rootTotal: Math.round(rng.range(90, 120) * GIB),
    rootUsed: Math.round(rng.range(6, 18) * GIB),
    bootMs: nowMs - rng.int(3, 90) * DAY_SEC * 1000 - rng.int(0, DAY_SEC) * 1000,
  }
}

function buildMain(
  rng: Rng,
  guests: readonly SimPbsGuest[],
  options: PbsBuildOptions,
  baseDay: number,
): SimStore {
  const namespaces: SimNamespace[] = MAIN_NAMESPACES.map((n) => ({
    path: n.path,
    ...('comment' in n ? { comment: n.comment } : {}),
    retention: { ...n.retention },
    groups: [],
  }))
  const cursors = new Map<string, number>(MAIN_NAMESPACES.map((n) => [n.path, n.start]))
  for (const guest of guests) {
    const path = pickNamespace(rng, guest)
    const ns = path === undefined ? undefined : namespaces.find((n) => n.path === path)
    if (ns === undefined) continue
    const { path: nsPath } = ns
    const type: BackupType = guest.type === 'qemu' ? 'vm' : 'ct'
    const owner = nsPath.startsWith('prod') ? options.tokenId : 'root@pam'
    const named = nsPath.startsWith('prod') ? rng.chance(0.95) : nsPath === 'lab' && rng.chance(0.3)
    const group = buildGroup(rng, {
      type,
      id: String(guest.vmid),
      owner,
      comment: named ? guest.name : undefined,
      start: cursors.get(nsPath) ?? 0,
      everyDays: 1,
      archives: guestArchives(rng, type, guest.name),
    })
    if (rng.chance(0.08)) group.protectedDay = baseDay - rng.int(8, 40)
    cursors.set(nsPath, group.startSec + group.durationSec + rng.int(20, 60))
    ns.groups.push(group)
  }
  const root = namespaces[0]!
  let hostStart = 20 * HOUR
  for (const name of options.hostBackups) {
    const group = buildGroup(rng, {
      type: 'host',
      id: name,
      owner: 'root@pam',
      start: hostStart,
      everyDays: 1,
      archives: hostArchives(rng),
    })
    hostStart += group.durationSec + 120
    root.groups.push(group)
  }
  return {
    name: 'main',
    comment: 'Primary backup store',
    path: '/mnt/datastore/main',
    total: 0,
    overhead: 0,
    namespaces,
    gcStartSec: 6 * HOUR,
    pruneStartSec: 5 * HOUR + 1800,
    verify: { kind: 'weekly', job: 'v-weekly', weekday: 0, startSec: 7 * HOUR },
    growthPerDay: rng.range(0.002, 0.008),
  }
}

// 'offsite' takes weekly copies (Sunday morning) of the production guests and the hosts.
function buildOffsite(rng: Rng, main: SimStore, hostBackups: readonly string[]): SimStore {
  const retention: Retention = { last: 4 }
  const prod: SimNamespace = { path: 'prod', comment: 'Weekly copy of prod', retention, groups: [] }
  const root: SimNamespace = { path: '', retention, groups: [] }
  let cursor = 6 * HOUR
  const copy = (source: SimGroup, into: SimNamespace): void => {
    const group: SimGroup = {
      ...source,
      owner: 'root@pam',
      salt: deriveSeed(source.salt, 77),
      startSec: cursor,
      everyDays: 7,
      weekday: 0,
      protectedDay: undefined,
    }
    cursor += group.durationSec + rng.int(20, 60)
    into.groups.push(group)
  }
  for (const ns of main.namespaces) {
    for (const group of ns.groups) {
      if (ns.path.startsWith('prod')) copy(group, prod)
      else if (group.type === 'host' && hostBackups.includes(group.id)) copy(group, root)
    }
  }
  return {
    name: 'offsite',
    comment: 'Weekly off-site copies',
    path: '/mnt/datastore/offsite',
    total: 0,
    overhead: 0,
    namespaces: [root, prod],
    gcStartSec: 10 * HOUR,
    pruneStartSec: 9 * HOUR,
    verify: { kind: 'new' },
    growthPerDay: rng.range(0.001, 0.004),
  }
}

interface GroupSpec {
  type: BackupType
  id: string
  owner: string
  comment?: string
  start: number
  everyDays: 1 | 7
  archives: SimArchive[]
}

function buildGroup(rng: Rng, spec: GroupSpec): SimGroup {
  const encrypted = rng.chance(0.06)
  // VM images are mostly empty space; file archives hold only real data.
  const used = spec.type === 'vm' ? rng.range(0.3, 0.8) : 1
  return {
    type: spec.type,
    id: spec.id,
    owner: spec.owner,
    ...(spec.comment !== undefined ? { comment: spec.comment } : {}),
    startSec: spec.start,
    durationSec: spec.type === 'vm' ? rng.int(60, 420) : rng.int(40, 300),
    everyDays: spec.everyDays,
    weekday: 0,
    archives: spec.archives,
    encrypted,
    ...(encrypted ? { keyFingerprint: fingerprintOf(rng) } : {}),
    uniqueFraction: used * rng.range(0.6, 0.85),
    changePerRun: rng.range(0.01, 0.06),
    salt: rng.int(1, 0x7fffffff),
  }
}

function fingerprintOf(rng: Rng): string {
  return (createHex(rng, 64).match(/../g) ?? []).join(':')
}

const blob = (filename: string, size: number): SimArchive => ({
  filename,
  baseSize: size,
  growthPerDay: 0,
  index: false,
})
const image = (filename: string, size: number): SimArchive => ({
  filename,
  baseSize: size,
  growthPerDay: 0,
  index: true,
})
const archive = (filename: string, size: number, growth: number): SimArchive => ({
  filename,
  baseSize: Math.round(size),
  growthPerDay: growth,
  index: true,
})

// File lists as vzdump uploads them (reference §3.5); index.json.blob is the manifest.
function guestArchives(rng: Rng, type: BackupType, name: string): SimArchive[] {
  const files: SimArchive[] = []
  if (type === 'vm') {
    files.push(blob('qemu-server.conf.blob', rng.int(420, 900)))
    if (name.startsWith('win')) files.push(image('drive-efidisk0.img.fidx', 540_672))
    files.push(image('drive-scsi0.img.fidx', rng.pick([16, 32, 32, 32, 50, 64, 100, 128]) * GIB))
    if (rng.chance(0.2)) files.push(image('drive-scsi1.img.fidx', rng.pick([100, 250, 500]) * GIB))
    if (name.startsWith('win')) files.push(image('drive-tpmstate0-backup.img.fidx', 4_194_304))
  } else {
    const data = rng.logNormal(4 * GIB, 0.8)
    const growth = rng.range(0.0005, 0.004)
    files.push(blob('pct.conf.blob', rng.int(280, 620)))
    // A third of the containers use the split metadata archive format (PBS 3.2+).
    if (rng.chance(0.3)) {
      files.push(archive('root.mpxar.didx', data * 0.015, growth))
      files.push(archive('root.ppxar.didx', data, growth))
    } else {
      files.push(archive('catalog.pcat1.didx', Math.max(120_000, data * 0.002), growth))
      files.push(archive('root.pxar.didx', data, growth))
    }
  }
  files.push(blob('index.json.blob', rng.int(480, 760)))
  files.push(blob('client.log.blob', rng.int(900, 4200)))
  return files
}

// proxmox-backup-client host backups: a file archive and its catalog, no vzdump log.
function hostArchives(rng: Rng): SimArchive[] {
  const data = rng.range(2, 12) * GIB
  const growth = rng.range(0.0005, 0.002)
  return [
    archive('catalog.pcat1.didx', data * 0.003, growth),
    archive('root.pxar.didx', data, growth),
    blob('index.json.blob', rng.int(380, 520)),
  ]
}

// Small estates may roll no encrypted or protected group at all: make sure each shows up once.
function ensureVariety(rng: Rng, stores: SimStore[], baseDay: number): void {
  const groups = stores[0]?.namespaces.flatMap((n) => n.groups) ?? []
  const guests = groups.filter((g) => g.type !== 'host')
  if (guests.length < 3) return
  if (!groups.some((g) => g.encrypted)) {
    const target = guests[guests.length - 1]!
    target.encrypted = true
    target.keyFingerprint = fingerprintOf(rng)
  }
  if (!groups.some((g) => g.protectedDay !== undefined)) guests[0]!.protectedDay = baseDay - 12
}

// Sizes the filesystem so today's usage is 35-70%, as datastores usually sit (reference §6.4).
function sizeStore(rng: Rng, store: SimStore, baseDay: number, nowMs: number): void {
  store.total = Number.MAX_SAFE_INTEGER
  const view = measureStore(store, baseDay, Math.floor(nowMs / 1000))
  store.overhead = Math.round(view.diskBytes * 0.004) + 2 * GIB
  const used = view.diskBytes + store.overhead
  store.total = Math.ceil(used / rng.range(0.35, 0.7) / 1e11) * 1e11
}
