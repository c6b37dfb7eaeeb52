import { describe, expect, it } from 'vitest'
import { createRecentStore } from '../../../../src/server/history/recent-store.ts'
import type { CollectedState } from '../../../../src/server/collect/collected-state.ts'
import { HISTORY_METRICS } from '../../../../src/shared/model/history.ts'
import type { PbsInstance, Storage } from '../../../../src/shared/model/state.ts'
import { makeCollected } from '../collected-fixture.ts'

const T0 = 1_700_000_040_000 // the start of a minute
const MIN = 60_000
const sec = (ms: number) => Math.floor(ms / 1000)
const GIB = 1024 ** 3

/** makeCollected's state (3 guests on 2 nodes, guest 0 stopped) with a storage and a PBS. */
function state(tick = 0): CollectedState {
  const s = makeCollected(3, tick)
  s.vms = [...s.vms, ...s.containers].filter((g) => g.vmid !== 103)
  s.containers = []
  const storage: Storage = {
    id: 'lab-pve1-local',
    name: 'local',
    node: 'pve1',
    instance: 'lab',
    type: 'dir',
    content: 'images',
    status: 'available',
    shared: false,
    enabled: true,
    active: true,
    total: 100 * GIB,
    used: 25 * GIB,
    free: 75 * GIB,
    usage: 25,
  }
  const pbs: PbsInstance = {
    id: 'pbs-main',
    name: 'main',
    host: 'https://127.0.0.1:8007',
    status: 'online',
    version: '3.4',
    cpu: 12.5,
    memory: 40,
    memoryUsed: 4 * GIB,
    memoryTotal: 10 * GIB,
    uptime: 100,
    datastores: [
      {
        name: 'store1',
        total: 10 * GIB,
        used: 5 * GIB,
        free: 5 * GIB,
        usage: 50,
        status: 'available',
        namespaces: [],
      },
    ],
    connectionHealth: 'healthy',
    lastSeen: T0,
  }
  s.storage = [storage]
  s.pbs = [pbs]
  return s
}

const guestAt = (s: CollectedState, id: string) => s.vms.find((g) => g.id === id)!
const G = 'lab-pve2-101' // a running guest of makeCollected

describe('createRecentStore', () => {
  it('keeps the average and the peak of the polls within each minute', () => {
    const store = createRecentStore()
    const cpus = [0.1, 0.5, 0.3]
    cpus.forEach((cpu, i) => {
      const s = state()
      guestAt(s, G).cpu = cpu
      store.record(s, T0 + i * 10_000)
    })
    const s = state()
    guestAt(s, G).cpu = 0.9
    store.record(s, T0 + MIN)
    const cpu = store.series(G, ['cpu'], sec(T0))!.cpu!
    expect(cpu.time).toEqual([sec(T0), sec(T0) + 60])
    expect(cpu.avg[0]).toBeCloseTo(30, 1)
    expect(cpu.max![0]).toBeCloseTo(50, 1)
    // The minute under way as it stands.
    expect(cpu.avg[1]).toBeCloseTo(90, 5)
    expect(cpu.max![1]).toBeCloseTo(90, 5)
  })

  it('records each kind in the units of HISTORY_METRICS', () => {
    const store = createRecentStore()
    const s = state()
    const g = guestAt(s, G)
    Object.assign(g, {
      cpu: 0.25,
      diskRead: 1000,
      diskWrite: 2000,
      networkIn: 300,
      networkOut: 400,
    })
    g.memory = { usage: 0, used: 1 * GIB, total: 4 * GIB }
    g.disk = { usage: 10, used: 10 * GIB, total: 40 * GIB }
    const node = s.nodes[0]!
    node.cpu = 0.5
    node.memory = { usage: 0, used: 3, total: 4 }
    node.disk = { usage: 0, used: 1, total: 10 }
    node.loadAverage = [1.5, 1, 0.5]
    node.temperature = { available: true, cpuPackage: 55 }
    store.record(s, T0)
    store.record(state(), T0 + MIN) // closes the first minute into the rings
    const first = (id: string, metrics: readonly string[]) => {
      const out = store.series(id, metrics as never, sec(T0))!
      return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.avg[0]]))
    }
    const guest = first(G, HISTORY_METRICS.guest)
    expect(guest.cpu).toBeCloseTo(25, 2)
    expect(guest.memory).toBeCloseTo(25, 2)
    expect(guest.disk).toBeCloseTo(25, 2)
    expect(guest).toMatchObject({ diskread: 1000, diskwrite: 2000, netin: 300, netout: 400 })
    const nodeValues = first(node.id, HISTORY_METRICS.node)
    expect(nodeValues.cpu).toBeCloseTo(50, 2)
    expect(nodeValues.memory).toBeCloseTo(75, 2)
    expect(nodeValues.disk).toBeCloseTo(10, 2)
    expect(nodeValues).toMatchObject({ load: 1.5, temperature: 55 })
    // The live node model has no I/O wait and no network rates: nothing is made up for them.
    expect(nodeValues).not.toHaveProperty('iowait')
    expect(nodeValues).not.toHaveProperty('netin')
    expect(first('lab-pve1-local', HISTORY_METRICS.storage)).toEqual({
      usage: 25,
      used: 25 * GIB,
      total: 100 * GIB,
    })
    expect(first('pbs-main', HISTORY_METRICS.pbs)).toEqual({ cpu: 12.5, memory: 40 })
    expect(first('pbs-main:store1', HISTORY_METRICS.datastore)).toEqual({
      usage: 50,
      used: 5 * GIB,
      total: 10 * GIB,
    })
    expect(store.series('nobody', ['cpu'], 0)).toBeUndefined()
  })

  it('leaves gaps, never zeros, for stopped, offline, inactive and absent resources', () => {
    const store = createRecentStore()
    store.record(state(), T0)
    const down = state()
    guestAt(down, G).status = 'stopped'
    down.nodes[0]!.status = 'offline'
    down.storage[0]!.active = false
    down.pbs[0]!.status = 'offline'
    down.vms = down.vms.filter((g) => g.id !== 'lab-pve1-102') // absent from the poll
    store.record(down, T0 + MIN)
    store.record(state(), T0 + 2 * MIN)
    const avg = (id: string, metric: string) =>
      store.series(id, [metric as never], sec(T0))![metric as 'cpu']!.avg
    for (const [id, metric] of [
      [G, 'cpu'],
      ['lab-pve1-102', 'netin'],
      ['lab-pve1', 'cpu'],
      ['lab-pve1-local', 'used'],
      ['pbs-main', 'memory'],
      ['pbs-main:store1', 'usage'],
    ] as const) {
      const values = avg(id, metric)
      expect(values, `${id} ${metric}`).toHaveLength(3)
      expect(values[0], `${id} ${metric}`).not.toBeNull()
      expect(values[1], `${id} ${metric}`).toBeNull()
      expect(values[2], `${id} ${metric}`).not.toBeNull()
    }
    // A guest stopped from the start is known, with gaps only.
    expect(avg('lab-pve1-100', 'cpu')).toEqual([null, null, null])
    // A disk that Proxmox does not report (usage -1) is a gap, not 0 %.
    const noDisk = state()
    guestAt(noDisk, G).disk = { usage: -1, used: 0, total: 10 }
    store.record(noDisk, T0 + 3 * MIN)
    expect(avg(G, 'disk')[3]).toBeNull()
  })

  it('leaves gaps for the minutes in which no poll came', () => {
    const store = createRecentStore()
    store.record(state(), T0)
    store.record(state(), T0 + 3 * MIN)
    expect(store.series(G, ['cpu'], sec(T0))!.cpu!.avg.map((v) => v === null)).toEqual([
      false,
      true,
      true,
      false,
    ])
  })

  it('keeps the retention: older minutes drop, shrinking and growing keep the recent ones', () => {
    const store = createRecentStore({ retentionMinutes: 10 })
    const cpuAt = (minute: number) => ((minute % 50) + 1) / 100
    const poll = (minute: number) => {
      const s = state()
      guestAt(s, G).cpu = cpuAt(minute)
      store.record(s, T0 + minute * MIN)
    }
    for (let minute = 0; minute < 25; minute++) poll(minute)
    const cpu = () => store.series(G, ['cpu'], 0)!.cpu!
    expect(cpu().time).toHaveLength(10)
    expect(cpu().time[0]).toBe(sec(T0 + 15 * MIN))
    expect(cpu().avg[0]).toBeCloseTo(16, 2)

    store.setRetentionMinutes(30)
    expect(store.retentionMinutes).toBe(30)
    for (let minute = 25; minute < 45; minute++) poll(minute)
    // Everything since the store held at most 10 minutes: from minute 15 to 44.
    expect(cpu().time).toHaveLength(30)
    expect(cpu().avg.every((v) => v !== null)).toBe(true)
    expect(cpu().avg[0]).toBeCloseTo(16, 2)

    store.setRetentionMinutes(12)
    expect(cpu().time).toHaveLength(12)
    for (let minute = 45; minute < 50; minute++) poll(minute)
    expect(cpu().time[0]).toBe(sec(T0 + 38 * MIN))
    expect(cpu().avg.map((v) => Math.round(v!))).toEqual(
      Array.from({ length: 12 }, (_, i) => Math.round(cpuAt(38 + i) * 100)),
    )
    expect(() => store.setRetentionMinutes(5)).toThrow(/historyRetentionMinutes/)
    expect(() => createRecentStore({ retentionMinutes: 361 })).toThrow(/historyRetentionMinutes/)
  })

  it('frees the slot of a resource gone for the whole retention and reuses it for a new one', () => {
    const store = createRecentStore({ retentionMinutes: 10 })
    store.record(state(), T0)
    const before = store.stats()
    const without = () => {
      const s = state()
      s.vms = s.vms.filter((g) => g.id !== G)
      return s
    }
    for (let minute = 1; minute <= 10; minute++) store.record(without(), T0 + minute * MIN)
    expect(store.series(G, ['cpu'], 0)).toBeUndefined()
    expect(store.stats().resources).toBe(before.resources - 1)
    // A new guest takes the freed slot: no new memory, and none of the old guest's points.
    const next = without()
    next.vms.push({ ...guestAt(state(), G), id: 'lab-pve2-999', vmid: 999 })
    store.record(next, T0 + 11 * MIN)
    expect(store.stats()).toEqual(before)
    const cpu = store.series('lab-pve2-999', ['cpu'], 0)!.cpu!
    expect(cpu.avg.slice(0, -1).every((v) => v === null)).toBe(true)
    expect(cpu.avg.at(-1)).not.toBeNull()
  })

  it('finds each guest by id when the poll reorders the list', () => {
    const store = createRecentStore()
    const s = state()
    s.vms.forEach((g, i) => (g.cpu = (i + 1) / 10))
    store.record(s, T0)
    const reordered = state()
    reordered.vms.forEach((g, i) => (g.cpu = (i + 1) / 10))
    reordered.vms.reverse()
    store.record(reordered, T0 + 10_000)
    for (const g of s.vms.filter((v) => v.status === 'running')) {
      expect(store.series(g.id, ['cpu'], 0)!.cpu!.max![0]).toBeCloseTo(g.cpu * 100, 5)
    }
  })

  it('records a large poll in slices (recordSteps) with the same points as record()', () => {
    const many = state()
    for (let i = 0; i < 5000; i++)
      many.vms.push({ ...many.vms[0]!, id: `bulk-${i}`, cpu: i / 5000 })
    const whole = createRecentStore()
    whole.record(many, T0)
    const sliced = createRecentStore()
    const steps = sliced.recordSteps(many, T0)
    let yields = 0
    while (!steps.next().done) yields++
    expect(yields).toBeGreaterThanOrEqual(2)
    for (const id of ['bulk-0', 'bulk-2500', 'bulk-4999', G]) {
      expect(sliced.series(id, ['cpu', 'netin'], 0)).toEqual(whole.series(id, ['cpu', 'netin'], 0))
    }
    expect(sliced.series('bulk-4999', ['cpu'], 0)!.cpu!.avg[0]).toBeCloseTo(99.98, 5)
  })

  it('holds the typed arrays it says, growing in chunks of slots', () => {
    const store = createRecentStore()
    store.record(state(), T0)
    const small = store.stats()
    expect(small.resources).toBe(3 + 2 + 1 + 1 + 1) // 3 guests, 2 nodes, storage, pbs, datastore
    const many = state()
    for (let i = 0; i < 2000; i++) many.vms.push({ ...many.vms[0]!, id: `bulk-${i}` })
    store.record(many, T0 + 10_000)
    // Guests in chunks of 1,024: 2,003 guests need two more chunks of 1,024 × 60 minutes × 44 bytes.
    expect(store.stats().bytes - small.bytes).toBeGreaterThanOrEqual(1024 * 60 * 44)
    expect(store.stats().bytes - small.bytes).toBeLessThan(2 * 1024 * 60 * 44 + 1024 * 200)
  })
})
