// The resource page's view (issue 25): finds a guest, node, storage, PBS or datastore by id with
// the tables' own row builders; loading until the live data is here, then not found; memoized.
import { describe, expect, test } from 'vitest'
import type { Entity } from '../../../../src/shared/model/state.ts'
import {
  createResourceView,
  type ResourceViewInput,
} from '../../../../src/shared/views/resource-view.ts'
import { formatForecast } from '../../../../src/shared/views/storage-forecast.ts'
import { makeGuest, makeNode } from './guest-fixtures.ts'

const GB = 1024 ** 3
const forecast = { fullInDays: 9, fullAt: 0, bytesPerDay: 2 * GB, r2: 0.9, computedAt: 0 }

function input(patch: Partial<ResourceViewInput> = {}): ResourceViewInput {
  return {
    guests: [makeGuest(100, { name: 'web-01' }), makeGuest(101)],
    nodes: [makeNode('pve1')],
    storage: [
      {
        id: 'lab-pve1-local',
        name: 'local',
        node: 'pve1',
        instance: 'lab',
        type: 'dir',
        content: 'iso',
        status: 'available',
        shared: false,
        enabled: true,
        active: true,
        total: 100 * GB,
        used: 60 * GB,
        free: 40 * GB,
        usage: 60,
        forecast,
      } as unknown as Entity,
    ],
    pbs: [
      {
        id: 'pbs-main',
        name: 'main',
        status: 'healthy',
        cpu: 5,
        datastores: [{ name: 'store1', total: 10 * GB, used: 5 * GB, status: 'available' }],
      } as unknown as Entity,
    ],
    alerts: [
      {
        id: 'a1',
        type: 'cpu',
        level: 'critical',
        resourceId: 'lab-pve1-100',
        resourceName: 'web-01',
        message: 'CPU',
        value: 97,
        threshold: 90,
        startTime: '2025-01-01T11:00:00Z',
      } as unknown as Entity,
    ],
    pending: new Set(),
    now: Date.UTC(2025, 0, 1, 12),
    ready: true,
    ...patch,
  }
}

describe('resource view', () => {
  test('a guest: its row, detail, header and its own active alerts only', () => {
    const view = createResourceView()
    const model = view.compute(input(), {
      kind: 'resource',
      resourceKind: 'guest',
      id: 'lab-pve1-100',
    })
    expect(model.status).toBe('found')
    expect(model.header).toMatchObject({ name: 'web-01', typeLabel: 'VM 100', up: true })
    expect(model.guest?.alert).toBe('critical')
    expect(model.alerts.map((a) => a.id)).toEqual(['a1'])
    const other = view.compute(input(), {
      kind: 'resource',
      resourceKind: 'guest',
      id: 'lab-pve1-101',
    })
    expect(other.alerts).toEqual([])
  })

  test('a node, a storage with its forecast, a PBS with its datastores, a datastore', () => {
    const view = createResourceView()
    const node = view.compute(input(), { kind: 'resource', resourceKind: 'node', id: 'lab-pve1' })
    expect(node.node?.name).toBe('pve1')
    const storage = view.compute(input(), {
      kind: 'resource',
      resourceKind: 'storage',
      id: 'lab-pve1-local',
    })
    expect(storage.storage?.forecast?.text).toBe('full in 9 days')
    const pbs = view.compute(input(), { kind: 'resource', resourceKind: 'pbs', id: 'pbs-main' })
    expect(pbs.datastores.map((d) => d.id)).toEqual(['pbs-main:store1'])
    const store = view.compute(input(), {
      kind: 'resource',
      resourceKind: 'datastore',
      id: 'pbs-main:store1',
    })
    expect(store.datastore).toMatchObject({ name: 'store1', usageText: '50%', forecast: null })
  })

  test('loading before the live data, not found after; the same object while nothing changed', () => {
    const view = createResourceView()
    const request = { kind: 'resource', resourceKind: 'guest', id: 'nope' } as const
    expect(view.compute(input({ ready: false }), request).status).toBe('loading')
    const data = input()
    const first = view.compute(data, request)
    expect(first.status).toBe('notFound')
    expect(view.compute({ ...data, now: data.now + 1 }, request)).toBe(first)
  })
})

describe('formatForecast', () => {
  test('days, one day, under a day; nothing without a forecast', () => {
    expect(formatForecast(forecast)?.text).toBe('full in 9 days')
    expect(formatForecast({ ...forecast, fullInDays: 1 })?.text).toBe('full in 1 day')
    expect(formatForecast({ ...forecast, fullInDays: 0 })?.text).toBe('full in < 1 day')
    expect(formatForecast(undefined)).toBeNull()
    expect(formatForecast(forecast)?.title).toBe(
      'Growing 2 GB per day: a straight-line fit of the last 30 days of usage.',
    )
  })
})
