// The detail scheduler takes its I/O as a `call(path, signal)` function. These tests script that
// function in-process (answers from the recorded fixtures, PVE-style AppErrors) to check cadence,
// bounds and backoff call by call; the HTTP path is covered by the endpoint-poll and poller tests.
import { describe, expect, it } from 'vitest'
import { AppError } from '../../../../src/shared/model/errors.ts'
import type { Guest } from '../../../../src/shared/model/state.ts'
import {
  cancelDetails,
  createDetailCache,
  pruneDetails,
  refreshDetails,
  type DetailCache,
  type DetailPolicy,
} from '../../../../src/server/collect/pve-agent.ts'
import { toGuestSample } from '../../../../src/server/collect/pve-guests.ts'
import { readFixture } from './fixtures.ts'

const POLICY: DetailPolicy = {
  every: 6,
  minBatch: 2,
  perNode: 2,
  timeoutMs: 4_000,
  maxBackoffCycles: 180,
}

function guest(vmid: number, type: 'qemu' | 'lxc' = 'qemu', node = 'pve1'): Guest {
  const entry = { type, vmid, node, status: 'running', maxmem: 4096, mem: 1024, uptime: 100 }
  return toGuestSample(entry, 'lab')!.guest
}

type Answer = unknown | (() => unknown)

// Answers by path suffix; every call is logged. A function answer may throw or hang.
function scripted(answers: Record<string, Answer>) {
  const calls: string[] = []
  let inFlight = 0
  let peak = 0
  const call = async (path: string, signal?: AbortSignal): Promise<unknown> => {
    calls.push(path)
    inFlight++
    peak = Math.max(peak, inFlight)
    try {
      await new Promise((resolve) => setImmediate(resolve))
      const key = Object.keys(answers).find((k) => path.endsWith(k))
      if (key === undefined)
        throw new AppError('PVE_HTTP', { host: 'h', status: 501, reason: path })
      const answer = answers[key]
      if (typeof answer !== 'function') return answer
      return await Promise.race([
        (answer as () => unknown)(),
        new Promise((_, reject) => {
          const abort = () => reject(signal?.reason)
          if (signal?.aborted) abort()
          else signal?.addEventListener('abort', abort)
        }),
      ])
    } finally {
      inFlight--
    }
  }
  return {
    call,
    calls,
    get peak() {
      return peak
    },
  }
}

const AGENT_OK = {
  'status/current': readFixture('qemu-status-current__france-nuage-plateforme.json'),
  'agent/get-fsinfo': readFixture('qemu-agent-get-fsinfo-windows__pulse-issue1319.json'),
  'agent/network-get-interfaces': readFixture(
    'qemu-agent-network-get-interfaces__unidentified-pve9-capture.json',
  ),
  'agent/get-osinfo': {
    result: { name: 'Microsoft Windows', 'pretty-name': 'Windows Server 2022 Standard' },
  },
}

async function runCycle(
  cache: DetailCache,
  guests: Guest[],
  call: (path: string, signal?: AbortSignal) => Promise<unknown>,
  cycle: number,
  policy = POLICY,
) {
  const cacheEvents: boolean[] = []
  pruneDetails(cache, guests)
  await Promise.all(
    refreshDetails(cache, guests, {
      call,
      host: 'pve.example.com',
      cycle,
      policy,
      onCache: (hit) => cacheEvents.push(hit),
    }),
  )
  return cacheEvents
}

describe('refreshDetails', () => {
  it('fetches status, filesystems, interfaces and OS of a VM with a running agent', async () => {
    const cache = createDetailCache(8)
    const io = scripted(AGENT_OK)
    await runCycle(cache, [guest(105)], io.call, 1)
    expect(io.calls).toEqual([
      '/nodes/pve1/qemu/105/status/current',
      '/nodes/pve1/qemu/105/agent/get-fsinfo',
      '/nodes/pve1/qemu/105/agent/network-get-interfaces',
      '/nodes/pve1/qemu/105/agent/get-osinfo',
    ])
    const details = cache.entries.get(105)!.details
    expect(details).toMatchObject({
      agentEnabled: true,
      balloon: 1073741824,
      memoryUsed: 420847616,
      disk: { used: 10993242161152, total: 13132038656000, usage: 83.71 },
      osName: 'Windows Server 2022 Standard',
    })
    expect('osVersion' in details).toBe(false)
    expect(details.disks).toHaveLength(3)
    expect(details.networkInterfaces?.[0]?.name).toBe('ens18')
    expect(details.diskStatusReason).toBeUndefined()
  })

  it('refreshes a guest at most every 6 cycles and counts cache hits in between', async () => {
    const cache = createDetailCache(8)
    const io = scripted(AGENT_OK)
    const events: boolean[][] = []
    for (let cycle = 1; cycle <= 7; cycle++) {
      events.push(await runCycle(cache, [guest(105)], io.call, cycle))
    }
    const statusCalls = io.calls.filter((p) => p.endsWith('status/current'))
    expect(statusCalls).toHaveLength(2)
    expect(events).toEqual([[false], [true], [true], [true], [true], [true], [false]])
    // The OS does not change without a reboot: asked once.
    expect(io.calls.filter((p) => p.endsWith('get-osinfo'))).toHaveLength(1)
  })

  it('spreads a node of many guests over the cycles, oldest first', async () => {
    const cache = createDetailCache(8)
    const io = scripted({ 'status/current': { status: 'running', uptime: 10 } })
    const guests = Array.from({ length: 24 }, (_, i) => guest(200 + i))
    const perCycle: number[] = []
    for (let cycle = 1; cycle <= 12; cycle++) {
      const before = io.calls.length
      await runCycle(cache, guests, io.call, cycle)
      perCycle.push(io.calls.length - before)
    }
    // 24 guests / 6 cycles = 4 per cycle, and each guest again 6 cycles after its last refresh.
    expect(perCycle).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4])
    expect(new Set(io.calls.slice(0, 24)).size).toBe(24)
  })

  it('keeps at most perNode calls in flight per node and the endpoint limit overall', async () => {
    const cache = createDetailCache(3)
    const io = scripted({ 'status/current': { status: 'running', uptime: 10 } })
    const guests = [
      ...Array.from({ length: 6 }, (_, i) => guest(300 + i, 'qemu', 'pve1')),
      ...Array.from({ length: 6 }, (_, i) => guest(400 + i, 'qemu', 'pve2')),
    ]
    await runCycle(cache, guests, io.call, 1, { ...POLICY, minBatch: 6 })
    expect(io.calls).toHaveLength(12)
    expect(io.peak).toBe(3)
  })

  it('backs off an agent that is not running instead of asking every refresh', async () => {
    const cache = createDetailCache(8)
    const io = scripted({
      'status/current': { status: 'running', uptime: 50, agent: 1 },
      'agent/get-fsinfo': () => {
        throw new AppError('PVE_HTTP', {
          host: 'h',
          status: 500,
          reason: 'QEMU guest agent is not running',
        })
      },
    })
    const g = guest(500)
    for (let cycle = 1; cycle <= 30; cycle++) await runCycle(cache, [g], io.call, cycle)
    const fsinfoCycles = io.calls.filter((p) => p.endsWith('get-fsinfo')).length
    // Cycle 1 fails and waits 12 cycles (to 13), which fails and waits 24 (to 37).
    expect(fsinfoCycles).toBe(2)
    expect(io.calls.filter((p) => p.endsWith('status/current'))).toHaveLength(5)
    expect(cache.entries.get(500)!.details).toMatchObject({
      agentEnabled: true,
      diskStatusReason: 'agent-not-running',
    })
    expect(cache.entries.get(500)!.details.disks).toBeUndefined()
  })

  it('gives the agent a fresh chance after the guest restarted', async () => {
    const cache = createDetailCache(8)
    let uptime = 5_000
    let agentUp = false
    const io = scripted({
      'status/current': () => ({ status: 'running', uptime, agent: 1 }),
      'agent/get-fsinfo': () => {
        if (!agentUp) throw new AppError('PVE_TIMEOUT', { host: 'h', ms: 4000 })
        return readFixture('qemu-agent-get-fsinfo-windows__pulse-issue1319.json')
      },
      'agent/network-get-interfaces': { result: [] },
      'agent/get-osinfo': { result: {} },
    })
    await runCycle(cache, [guest(600)], io.call, 1)
    expect(cache.entries.get(600)!.details.diskStatusReason).toBe('agent-timeout')
    uptime = 30
    agentUp = true
    await runCycle(cache, [guest(600)], io.call, 7)
    expect(cache.entries.get(600)!.details.disk?.usage).toBe(83.71)
  })

  it('reports agent-disabled without agent calls and special reasons from get-fsinfo', async () => {
    const cache = createDetailCache(8)
    const io = scripted({
      '700/status/current': { status: 'running', uptime: 50 },
      '701/status/current': { status: 'running', uptime: 50, agent: 1 },
      '701/agent/get-fsinfo': { result: [] },
      '701/agent/network-get-interfaces': {
        result: { error: { class: 'Unsupported', desc: 'not supported' } },
      },
      '701/agent/get-osinfo': { result: { name: 'Live' } },
    })
    await runCycle(cache, [guest(700), guest(701)], io.call, 1)
    expect(io.calls.filter((p) => p.includes('/700/'))).toEqual([
      '/nodes/pve1/qemu/700/status/current',
    ])
    expect(cache.entries.get(700)!.details.diskStatusReason).toBe('agent-disabled')
    expect(cache.entries.get(701)!.details).toMatchObject({
      diskStatusReason: 'no-filesystems',
      osName: 'Live',
    })
    expect(cache.entries.get(701)!.details.networkInterfaces).toBeUndefined()
  })

  it('reads swap and interfaces of a container without any agent call', async () => {
    const cache = createDetailCache(8)
    const io = scripted({
      'lxc/800/status/current': readFixture(
        'lxc-status-current__community-proxmox-inventory-pve6.2.json',
      ),
      'lxc/800/interfaces': readFixture('lxc-interfaces__go-proxmox.json'),
    })
    await runCycle(cache, [guest(800, 'lxc')], io.call, 1)
    expect(io.calls).toEqual([
      '/nodes/pve1/lxc/800/status/current',
      '/nodes/pve1/lxc/800/interfaces',
    ])
    const details = cache.entries.get(800)!.details
    expect(details).toMatchObject({ swapUsed: 0, swapTotal: 1073741824 })
    expect(details.networkInterfaces?.map((n) => n.name)).toEqual(['eth0'])
  })

  it('times a hung agent out with the per-call budget and calls it agent-timeout', async () => {
    const cache = createDetailCache(8)
    const io = scripted({
      'status/current': { status: 'running', uptime: 50, agent: 1 },
      'agent/get-fsinfo': () => new Promise(() => {}),
    })
    await runCycle(cache, [guest(900)], io.call, 1, { ...POLICY, timeoutMs: 20 })
    expect(cache.entries.get(900)!.details.diskStatusReason).toBe('agent-timeout')
    // The other agent calls are not tried against a hung agent.
    expect(io.calls.filter((p) => p.includes('/agent/'))).toHaveLength(1)
  })

  it('keeps refreshing other nodes while one node hangs, and cancels the hung batch', async () => {
    const cache = createDetailCache(8)
    const io = scripted({
      'pve1/qemu/1000/status/current': () => new Promise(() => {}),
      'status/current': { status: 'running', uptime: 50 },
    })
    const guests = [guest(1000, 'qemu', 'pve1'), guest(1001, 'qemu', 'pve2')]
    const events = { call: io.call, host: 'h', policy: { ...POLICY, every: 1 }, onCache: () => {} }
    const first = refreshDetails(cache, guests, { ...events, cycle: 1 })
    expect(first).toHaveLength(2)
    await first[1]
    // pve1 still hangs: no second batch for it, but pve2 gets its next one.
    const second = refreshDetails(cache, guests, { ...events, cycle: 2 })
    expect(second).toHaveLength(1)
    await second[0]
    expect(io.calls.filter((p) => p.includes('/1001/'))).toHaveLength(2)
    await cancelDetails(cache)
    expect(cache.inflight.size).toBe(0)
    expect(io.calls.filter((p) => p.includes('/1000/'))).toHaveLength(1)
  })

  it('forgets guests that disappear or stop', async () => {
    const cache = createDetailCache(8)
    const io = scripted({ 'status/current': { status: 'running', uptime: 50 } })
    await runCycle(cache, [guest(1100), guest(1101)], io.call, 1)
    expect([...cache.entries.keys()].sort()).toEqual([1100, 1101])
    pruneDetails(cache, [guest(1101)])
    expect([...cache.entries.keys()]).toEqual([1101])
  })
})
