// The one view protocol of the worker API (subscribe / update / unsubscribe for every kind), over
// the fake socket of fake-socket.ts and a manual flush queue, so batching is observable.
import { releaseProxy } from 'comlink'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ViewKind, ViewModel, ViewRequest, WorkerApi } from '../../../src/worker/api-types.ts'
import { createWorkerApi } from '../../../src/worker/worker-api.ts'
import { createFakeDeps, type FakeSocket } from './fake-socket.ts'
import { makeGuest, makeNode, makeRequest } from '../shared/views/guest-fixtures.ts'
import { makeBackupsRequest } from '../shared/views/backups-fixtures.ts'
import { DEFAULT_COVERAGE_REQUEST } from '../../../src/shared/views/backup-coverage-types.ts'

const REQUESTS: { [K in ViewKind]: ViewRequest<K> } = {
  guests: makeRequest(),
  nodeSummary: { kind: 'nodeSummary', tab: 'dashboard', sort: null },
  storage: {
    kind: 'storage',
    viewMode: 'node',
    search: '',
    diskSearch: '',
    sort: { key: 'name', direction: 'asc' },
    selectedNode: null,
  },
  backups: makeBackupsRequest(),
  alertsOverview: { kind: 'alertsOverview', showAcknowledged: true },
  alertThresholds: {
    kind: 'alertThresholds',
    section: 'guests',
    search: '',
    window: { start: 0, count: 50 },
  },
  // Fetched, not computed from the store: in Node the relative URL fails and the model says so.
  alertHistory: {
    kind: 'alertHistory',
    range: '7d',
    severity: 'all',
    search: '',
    bucket: null,
    window: { start: 0, count: 50 },
    reload: 0,
  },
  guestUrls: { kind: 'guestUrls', search: '', window: { start: 0, count: 50 } },
  resource: { kind: 'resource', resourceKind: 'node', id: 'lab-pve1' },
  backupCoverage: DEFAULT_COVERAGE_REQUEST,
  backupJobs: { kind: 'backupJobs', problemsOnly: false },
  guestBackup: { kind: 'guestBackup', guestId: 'lab-pve1-101' },
  rulePreview: {
    kind: 'rulePreview',
    rules: [{ id: 'r', enabled: true, priority: 1, logicalOperator: 'AND', filters: ['web'] }],
    focus: 'r',
    limit: 10,
  },
}
/** A second request of each kind that changes what the view shows. */
const UPDATES: { [K in ViewKind]: ViewRequest<K> } = {
  guests: makeRequest({ search: 'no-such-guest' }),
  nodeSummary: { kind: 'nodeSummary', tab: 'dashboard', sort: { key: 'name', direction: 'desc' } },
  storage: { ...REQUESTS.storage, search: 'no-such-pool' },
  backups: makeBackupsRequest({ search: 'no-such-backup' }),
  alertsOverview: { kind: 'alertsOverview', showAcknowledged: false },
  alertThresholds: { ...REQUESTS.alertThresholds, search: 'no-such-guest' },
  alertHistory: { ...REQUESTS.alertHistory, severity: 'critical' },
  guestUrls: { ...REQUESTS.guestUrls, search: 'no-such-guest' },
  resource: { kind: 'resource', resourceKind: 'guest', id: 'no-such-guest' },
  backupCoverage: { ...DEFAULT_COVERAGE_REQUEST, search: 'no-such-guest' },
  backupJobs: { kind: 'backupJobs', problemsOnly: true },
  guestBackup: { kind: 'guestBackup', guestId: 'no-such-guest' },
  rulePreview: {
    ...REQUESTS.rulePreview,
    rules: [{ id: 'r', enabled: true, priority: 1, logicalOperator: 'AND', filters: ['nothing'] }],
  },
}
const KINDS = Object.keys(REQUESTS) as ViewKind[]

let api: WorkerApi
let socket: FakeSocket
let queue: Array<() => void>
let warn: ReturnType<typeof vi.fn>
const flush = () => queue.splice(0).forEach((run) => run())
let seq = 1

/** A callback with a release hook where a Comlink proxy has one. */
function proxyLike<T>(onValue: (value: T) => void) {
  const release = vi.fn()
  return { callback: Object.assign(onValue, { [releaseProxy]: release }), release }
}

function send(data: Record<string, unknown>) {
  socket.receive({ type: 'delta', data, seq: ++seq })
}

beforeEach(() => {
  const fake = createFakeDeps()
  queue = []
  warn = fake.warn
  api = createWorkerApi({
    socket: fake.deps,
    schedule: (run) => queue.push(run),
    now: () => Date.UTC(2024, 3, 2, 18),
  })
  api.connect({ url: 'ws://127.0.0.1:1/ws', deltas: true })
  socket = fake.sockets[0]!
  socket.open()
  seq = 1
  socket.receive({
    type: 'initialState',
    data: { nodes: [makeNode('pve1')], vms: [makeGuest(101)] },
    seq,
  })
  flush()
})

describe('the view protocol', () => {
  it('serves every view kind through the one subscribe, with a model of that kind', () => {
    const guests: ViewModel<'guests'>[] = []
    api.subscribe(REQUESTS.guests, (model) => guests.push(model))
    expect(guests.map((model) => [model.kind, model.totals.guests])).toEqual([['guests', 1]])
    const summaries: ViewModel<'nodeSummary'>[] = []
    api.subscribe(REQUESTS.nodeSummary, (model) => summaries.push(model))
    expect(summaries.map((model) => model.rows.map((row) => row.name))).toEqual([['pve1']])
    const storage: ViewModel<'storage'>[] = []
    api.subscribe(REQUESTS.storage, (model) => storage.push(model))
    expect(storage.map((model) => [model.kind, model.poolCount])).toEqual([['storage', 0]])
    const backups: ViewModel<'backups'>[] = []
    api.subscribe(REQUESTS.backups, (model) => backups.push(model))
    expect(backups.map((model) => [model.kind, model.loaded])).toEqual([['backups', false]])
  })

  it('pushes once per flush for a burst of deltas, and only the kinds whose data changed', () => {
    const kinds: string[] = []
    for (const kind of KINDS) api.subscribe(REQUESTS[kind], (model) => kinds.push(model.kind))
    kinds.length = 0
    send({ upsert: { vms: [makeGuest(102)] } })
    send({ upsert: { vms: [{ id: makeGuest(102).id, cpu: 0.5 }] } })
    expect(kinds).toEqual([])
    flush()
    // One push per subscription at most; storage reads no guests and keeps its model.
    expect(new Set(kinds).size).toBe(kinds.length)
    expect(kinds).toEqual(expect.arrayContaining(['guests', 'nodeSummary']))
    expect(kinds).not.toContain('storage')
  })

  it('asks the server for the on-demand backups for the kinds that read them, and only those', () => {
    const asks = () => socket.sent.filter((m) => (m as { type?: string }).type === 'want').length
    for (const kind of ['guests', 'storage', 'alertsOverview', 'resource'] as const) {
      api.subscribe(REQUESTS[kind], () => {})
    }
    expect(asks()).toBe(0)
    api.subscribe(REQUESTS.backupCoverage, () => {})
    expect(socket.sent).toContainEqual({ type: 'want', data: { backups: true } })
  })

  it.each(['backupJobs', 'guestBackup', 'backups'] as const)(
    'a %s view asks for the backups too',
    (kind) => {
      api.subscribe(REQUESTS[kind], () => {})
      expect(socket.sent).toContainEqual({ type: 'want', data: { backups: true } })
    },
  )

  it('answers an update at once, for every kind, with a newer version', () => {
    for (const kind of KINDS) {
      const versions: number[] = []
      const id = api.subscribe(REQUESTS[kind], (model) => versions.push(model.version))
      api.update(id, UPDATES[kind])
      expect(versions, kind).toHaveLength(2)
      expect(versions[1]!, kind).toBeGreaterThan(versions[0]!)
    }
  })

  it('stops pushing after unsubscribe, for every kind, on data and on update', () => {
    const pushed = new Map<ViewKind, number>()
    for (const kind of KINDS) {
      const id = api.subscribe(REQUESTS[kind], () => pushed.set(kind, (pushed.get(kind) ?? 0) + 1))
      api.unsubscribe(id)
      api.update(id, UPDATES[kind])
    }
    send({ upsert: { nodes: [makeNode('pve2')], vms: [makeGuest(103)] } })
    flush()
    expect(Object.fromEntries(pushed)).toEqual(Object.fromEntries(KINDS.map((kind) => [kind, 1])))
  })

  it('releases the callback proxy on unsubscribe, once, and calls it no more', () => {
    const models: unknown[] = []
    const { callback, release } = proxyLike((model: ViewModel<'guests'>) => models.push(model))
    const id = api.subscribe(REQUESTS.guests, callback)
    expect(release).not.toHaveBeenCalled()
    api.unsubscribe(id)
    expect(release).toHaveBeenCalledTimes(1)
    send({ upsert: { vms: [makeGuest(104)] } })
    flush()
    api.unsubscribe(id)
    expect(models).toHaveLength(1)
    expect(release).toHaveBeenCalledTimes(1)
  })

  it('releases a connection watcher on unsubscribe too', () => {
    const { callback, release } = proxyLike(() => undefined)
    const id = api.watchConnection(callback)
    api.unsubscribe(id)
    expect(release).toHaveBeenCalledTimes(1)
  })

  it('warns about a release that fails instead of throwing', () => {
    const callback = Object.assign(() => undefined, {
      [releaseProxy]: () => {
        throw new Error('Proxy has been released and is not useable')
      },
    })
    const id = api.subscribe(REQUESTS.storage, callback)
    expect(() => api.unsubscribe(id)).not.toThrow()
    expect(warn).toHaveBeenCalledWith('[worker] releasing a callback failed', expect.any(Error))
  })

  it('refuses an unknown kind with an error that names it and the known kinds', () => {
    const onModel = vi.fn()
    // @ts-expect-error: 'no-such-kind' is not a view kind; the types refuse it too.
    expect(() => api.subscribe({ kind: 'no-such-kind' }, onModel)).toThrow(
      `kind: unknown view kind 'no-such-kind' (known: ${KINDS.join(', ')}).`,
    )
    // @ts-expect-error: a request without a kind.
    expect(() => api.subscribe({}, onModel)).toThrow(/unknown view kind 'undefined'/)
    expect(onModel).not.toHaveBeenCalled()
  })

  it('releases the callback of a refused subscription', () => {
    const { callback, release } = proxyLike(() => undefined)
    // @ts-expect-error: not a view kind.
    expect(() => api.subscribe({ kind: 'noSuchKind' }, callback)).toThrow(/noSuchKind/)
    expect(release).toHaveBeenCalledTimes(1)
  })

  it('refuses an update of another kind and keeps the subscription as it was', () => {
    const models: ViewModel<'guests'>[] = []
    const id = api.subscribe(REQUESTS.guests, (model) => models.push(model))
    expect(() => api.update(id, REQUESTS.storage)).toThrow(
      `kind: subscription ${id} is a 'guests' view, not 'storage'.`,
    )
    send({ upsert: { vms: [makeGuest(105)] } })
    flush()
    expect(models.map((model) => model.kind)).toEqual(['guests', 'guests'])
  })
})
