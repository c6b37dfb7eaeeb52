import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  toDedupFactor,
  toPbsDatastore,
  toPbsDatastores,
  toPbsNodeFigures,
  toPbsVersion,
} from '../../../../src/server/collect/pbs-status.ts'
import { startPbsSimulator, type PbsSimulator } from '../../../../src/server/sim/pbs/index.ts'
import { getPbsData } from '../sim/pbs/helpers.ts'

// The datastore-usage entry of reference/proxmox-api.md §3.2, verbatim.
const REFERENCE_USAGE = {
  store: 'main',
  total: 21474836480000,
  used: 9663676416000,
  avail: 11811160064000,
  'mount-status': 'nonremovable',
  'backend-type': 'filesystem',
  'history-start': 1734220800,
  'history-delta': 86400,
  history: [null, 0.431, 0.438, 0.45],
  'estimated-full-date': 1769904000,
  'gc-status': {
    upid: 'UPID:pbs01:000005DC:00012A3B:00000011:6785E4A0:garbage_collection:main:root@pam:',
    'index-file-count': 5124,
    'index-data-bytes': 182536110080000,
    'disk-bytes': 9512345678901,
    'disk-chunks': 4012345,
    'removed-bytes': 123456789012,
    'removed-chunks': 54321,
    'pending-bytes': 0,
    'pending-chunks': 0,
    'removed-bad': 0,
    'still-bad': 0,
  },
}

describe('toPbsVersion', () => {
  it('joins major.minor and the release patch level, PBS style', () => {
    expect(toPbsVersion({ version: '3.3', release: '6', repoid: 'abc' })).toBe('3.3.6')
    expect(toPbsVersion({ version: '4.0', release: 14 })).toBe('4.0.14')
  })

  it('keeps a version that is already complete or has no numeric release', () => {
    expect(toPbsVersion({ version: '3.3.6', release: '6' })).toBe('3.3.6')
    expect(toPbsVersion({ version: '3.3' })).toBe('3.3')
    expect(toPbsVersion({ version: '3.3', release: 'beta' })).toBe('3.3')
    expect(toPbsVersion(null)).toBe('')
    expect(toPbsVersion({})).toBe('')
  })
})

describe('toPbsNodeFigures', () => {
  it('turns the cpu fraction into a percent and reads memory and uptime', () => {
    const figures = toPbsNodeFigures({
      cpu: 0.0642,
      wait: 0.01,
      loadavg: [0.5, 0.4, 0.3],
      memory: { total: 16_000_000_000, used: 6_100_000_000, free: 9_900_000_000 },
      root: { total: 100, used: 10, avail: 90 },
      uptime: 2_592_000,
    })
    expect(figures).toEqual({
      cpu: 6.42,
      memory: 38.13,
      memoryUsed: 6_100_000_000,
      memoryTotal: 16_000_000_000,
      uptime: 2_592_000,
    })
  })

  it('parses defensively: numeric strings, a missing used, cpu above 1, garbage', () => {
    expect(
      toPbsNodeFigures({ cpu: '1.02', memory: { total: '1000', free: '250' }, uptime: '60' }),
    ).toEqual({
      cpu: 100,
      memory: 75,
      memoryUsed: 750,
      memoryTotal: 1000,
      uptime: 60,
    })
    expect(toPbsNodeFigures('forbidden')).toEqual({
      cpu: 0,
      memory: 0,
      memoryUsed: 0,
      memoryTotal: 0,
      uptime: 0,
    })
  })
})

describe('toPbsDatastores', () => {
  it('maps the reference example, with the GUI dedup factor', () => {
    expect(toPbsDatastore(REFERENCE_USAGE)).toEqual({
      name: 'main',
      total: 21474836480000,
      used: 9663676416000,
      free: 11811160064000,
      usage: 45,
      status: 'available',
      namespaces: [],
      deduplicationFactor: 19.19,
    })
  })

  it('reports a store with an error and -1 or missing sizes as an error with zero sizes', () => {
    const stores = toPbsDatastores([
      { store: 'nfs', error: 'unable to stat datastore - ENOENT', total: -1, used: -1, avail: -1 },
      { store: 'usb', 'mount-status': 'notmounted' },
      {
        store: 'strings',
        total: '1000',
        used: '250',
        avail: '750',
        'gc-status': { 'index-data-bytes': '0', 'disk-bytes': 0 },
      },
      { total: 5 },
      'garbage',
    ])
    expect(stores).toEqual([
      {
        name: 'nfs',
        total: 0,
        used: 0,
        free: 0,
        usage: 0,
        status: 'error',
        error: 'unable to stat datastore - ENOENT',
        namespaces: [],
      },
      {
        name: 'usb',
        total: 0,
        used: 0,
        free: 0,
        usage: 0,
        status: 'error',
        error: 'datastore is not mounted',
        namespaces: [],
      },
      {
        name: 'strings',
        total: 1000,
        used: 250,
        free: 750,
        usage: 25,
        status: 'available',
        namespaces: [],
      },
    ])
    expect(toPbsDatastores({ data: [] })).toEqual([])
  })

  it('has no dedup factor before the first GC', () => {
    expect(toDedupFactor(undefined)).toBeUndefined()
    expect(toDedupFactor({ 'index-data-bytes': 10, 'disk-bytes': 0 })).toBeUndefined()
    expect(toDedupFactor({ 'index-data-bytes': 300, 'disk-bytes': 100 })).toBe(3)
  })
})

describe('PBS status mappers on answers captured from the simulator', () => {
  let sim: PbsSimulator
  beforeAll(async () => {
    sim = await startPbsSimulator({ seed: 6, tickMs: 0, now: () => Date.UTC(2025, 5, 3, 14) })
  })
  afterAll(async () => {
    await sim.stop()
  })

  it('maps /version, node status and datastore usage', async () => {
    const pbs = sim.servers[0]!
    expect(toPbsVersion(await getPbsData(pbs, '/version'))).toMatch(/^\d+\.\d+\.\d+$/)
    const status = await getPbsData<Record<string, unknown>>(pbs, '/nodes/localhost/status')
    const figures = toPbsNodeFigures(status)
    expect(figures.memoryTotal).toBe((status.memory as { total: number }).total)
    expect(figures.cpu).toBeCloseTo((status.cpu as number) * 100, 1)
    expect(figures.uptime).toBe(status.uptime)
    const raw = await getPbsData(pbs, '/status/datastore-usage')
    const stores = toPbsDatastores(raw)
    expect(stores.map((s) => s.name)).toEqual(['main', 'offsite'])
    for (const [i, store] of stores.entries()) {
      const entry = raw[i]!
      const gc = entry['gc-status'] as Record<string, number>
      expect(store.status).toBe('available')
      expect(store.used).toBe(entry.used)
      expect(store.free).toBe(entry.avail)
      expect(store.usage).toBeCloseTo(((entry.used as number) / (entry.total as number)) * 100, 1)
      expect(store.deduplicationFactor).toBeCloseTo(gc['index-data-bytes']! / gc['disk-bytes']!, 1)
    }
  })
})
