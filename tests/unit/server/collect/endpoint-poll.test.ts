import { describe, expect, it } from 'vitest'
import {
  createEndpointMemory,
  pollEndpoint,
  type EndpointMemory,
  type EndpointPollContext,
} from '../../../../src/server/collect/endpoint-poll.ts'
import type { QueryCall } from '../../../../src/server/collect/collector.ts'
import { createRateTracker } from '../../../../src/server/collect/rates.ts'
import { AppError } from '../../../../src/shared/model/errors.ts'

// pollEndpoint takes its API calls as a function: each test scripts them (the stub server and the
// simulator cover the HTTP side in poller.test.ts and poller-sim.test.ts).
const T0 = 1_760_000_000_000

function resources(offline: string[] = []): unknown[] {
  return [
    ...['pve1', 'pve2'].map((node) => ({
      type: 'node',
      node,
      id: `node/${node}`,
      status: offline.includes(node) ? 'offline' : 'online',
      maxcpu: 8,
      maxmem: 100,
      mem: 10,
    })),
    { type: 'qemu', id: 'qemu/100', vmid: 100, node: 'pve1', status: 'running', maxmem: 10 },
  ]
}

type Call = EndpointPollContext['call']

function context(
  memory: EndpointMemory,
  call: Call,
  extra: Partial<EndpointPollContext> = {},
): EndpointPollContext {
  return {
    instance: 'lab',
    host: 'https://127.0.0.1:8006',
    call,
    memory,
    rates: createRateTracker(),
    now: T0,
    pollIntervalMs: 10_000,
    cycle: 1,
    detailTimeoutMs: 5_000,
    detailConcurrency: 4,
    onCache: () => {},
    warn: () => {},
    ...extra,
  }
}

const answer: Call = async (path) => (path === '/cluster/resources' ? resources() : [])

describe('pollEndpoint: node statuses', () => {
  it('asks the nodes online last cycle for their status while /cluster/resources is loading', async () => {
    const memory = createEndpointMemory()
    await pollEndpoint(context(memory, answer))
    const seen: string[] = []
    let release = () => {}
    const loaded = new Promise<void>((resolve) => (release = resolve))
    const call: Call = async (path) => {
      seen.push(path)
      if (path.endsWith('/status') && path.startsWith('/nodes/')) {
        if (seen.filter((p) => p.startsWith('/nodes/')).length === 2) release()
        return { cpu: 0.1 }
      }
      if (path === '/cluster/resources') {
        // Answers once both statuses were asked; a poll that asks only afterwards would wait here
        // until this safety valve opens, and the order below would show it.
        setTimeout(release, 2_000).unref()
        await loaded
        seen.push('resources answered')
        return resources()
      }
      return []
    }
    await pollEndpoint(context(memory, call, { now: T0 + 10_000, cycle: 2 }))
    const answeredAt = seen.indexOf('resources answered')
    expect(seen.indexOf('/nodes/pve1/status')).toBeLessThan(answeredAt)
    expect(seen.indexOf('/nodes/pve2/status')).toBeLessThan(answeredAt)
    expect(memory.nodes.map((n) => [n.name, n.connectionHealth])).toEqual([
      ['pve1', 'healthy'],
      ['pve2', 'healthy'],
    ])
  })

  it('gives a node its budget from being asked: the wait for a connection is not its slowness', async () => {
    const memory = createEndpointMemory()
    await pollEndpoint(context(memory, answer))
    const budgets: (number | undefined)[] = []
    const warnings: Array<Record<string, unknown>> = []
    // pve1 answers after 1.5 budgets (as when it queued behind our other calls, the client then
    // timing its answer alone); pve2 never answers.
    const call: Call = (path, signal, timeoutMs) => {
      if (path === '/cluster/resources') return Promise.resolve(resources())
      if (!path.startsWith('/nodes/')) return Promise.resolve([])
      budgets.push(timeoutMs)
      return new Promise((resolve, reject) => {
        const timer =
          path === '/nodes/pve1/status' ? setTimeout(() => resolve({ cpu: 0.1 }), 150) : undefined
        signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)))
      })
    }
    await pollEndpoint(
      context(memory, call, {
        now: T0 + 10_000,
        cycle: 2,
        detailTimeoutMs: 100,
        warn: (obj) => warnings.push(obj as Record<string, unknown>),
      }),
    )
    expect(budgets).toEqual([100, 100])
    expect(memory.nodes.map((n) => [n.name, n.connectionHealth])).toEqual([
      ['pve1', 'healthy'],
      ['pve2', 'degraded'],
    ])
    expect(warnings).toEqual([{ instance: 'lab', node: 'pve2', code: 'PVE_TIMEOUT' }])
  })

  it('drops the early status answer of a node that has gone offline since', async () => {
    const memory = createEndpointMemory()
    await pollEndpoint(context(memory, answer))
    const warnings: Array<Record<string, unknown>> = []
    const call: Call = async (path) => {
      if (path === '/nodes/pve2/status') {
        throw new AppError('PVE_UNREACHABLE', { host: 'pve2', reason: 'no route' })
      }
      return path === '/cluster/resources' ? resources(['pve2']) : { cpu: 0.1 }
    }
    await pollEndpoint(
      context(memory, call, {
        now: T0 + 10_000,
        cycle: 2,
        warn: (obj) => warnings.push(obj as Record<string, unknown>),
      }),
    )
    const pve2 = memory.nodes.find((n) => n.name === 'pve2')!
    expect(pve2.status).toBe('offline')
    expect(pve2.connectionHealth).toBe('error')
    expect(warnings.filter((w) => w.node === 'pve2')).toEqual([])
  })

  it('asks a node that came online since once the list is in', async () => {
    const memory = createEndpointMemory()
    const first: Call = async (path) =>
      path === '/cluster/resources' ? resources(['pve2']) : { cpu: 0.1 }
    await pollEndpoint(context(memory, first))
    const seen: string[] = []
    const call: Call = async (path) => {
      seen.push(path)
      return path === '/cluster/resources' ? resources() : { cpu: 0.1 }
    }
    await pollEndpoint(context(memory, call, { now: T0 + 10_000, cycle: 2 }))
    expect(seen.filter((p) => p === '/nodes/pve2/status')).toHaveLength(1)
    expect(memory.nodes.find((n) => n.name === 'pve2')!.connectionHealth).toBe('healthy')
  })
})

describe('pollEndpoint: slow collectors', () => {
  it('does not wait again for a slow refresh that had its budget in an earlier cycle', async () => {
    const memory = createEndpointMemory()
    const quick: QueryCall = async () => []
    await pollEndpoint(
      context(memory, answer, { slow: { call: quick, budgetMs: 5_000, firstBudgetMs: 5_000 } }),
    )
    expect(memory.slowResult).toBeDefined()
    // The next refresh hangs on its first call: the cycle that started it waits its budget...
    let hang = () => {}
    const hung = new Promise<unknown[]>((resolve) => (hang = () => resolve([])))
    const stuck: QueryCall = () => hung
    await pollEndpoint(
      context(memory, answer, {
        now: T0 + 60_000,
        cycle: 2,
        slow: { call: stuck, budgetMs: 10, firstBudgetMs: 10 },
      }),
    )
    expect(memory.slowRun).toBeDefined()
    // ...and the next one, with a budget longer than the test may run, does not wait at all.
    await pollEndpoint(
      context(memory, answer, {
        now: T0 + 70_000,
        cycle: 3,
        slow: { call: stuck, budgetMs: 600_000, firstBudgetMs: 600_000 },
      }),
    )
    expect(memory.slowRun).toBeDefined()
    hang()
    await memory.slowRun
  })
})
