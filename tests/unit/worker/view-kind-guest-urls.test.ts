// The guestUrls view kind: the Guest URLs tab's search, node grouping and window run in the
// worker, one linear pass per search over text prepared once per guest list.
import { describe, expect, it } from 'vitest'
import type {
  GuestUrlRow,
  GuestUrlsViewModel,
  GuestUrlsViewRequest,
} from '../../../src/shared/views/guest-urls-types.ts'
import { createGuestUrlsView } from '../../../src/shared/views/guest-urls-view.ts'
import type { GuestStamp } from '../../../src/shared/views/guest-view.ts'
import { createWorkerApi } from '../../../src/worker/worker-api.ts'
import { createStateStore } from '../../../src/worker/store.ts'
import { makeGuest, makeNode } from '../shared/views/guest-fixtures.ts'
import { createFakeDeps } from './fake-socket.ts'

const REQUEST: GuestUrlsViewRequest = {
  kind: 'guestUrls',
  search: '',
  window: { start: 0, count: 50 },
}

const labels = (model: { rows: GuestUrlsViewModel['rows'] }) =>
  model.rows.map((row) => (row.kind === 'group' ? `# ${row.label} (${row.guestCount})` : row.name))

function setup() {
  const store = createStateStore()
  store.applyFull({
    nodes: [makeNode('pve1'), makeNode('pve2')],
    vms: [
      makeGuest(102, { node: 'pve2', name: 'web-02' }),
      makeGuest(101, { name: 'web-01' }),
      makeGuest(110, { name: 'db-main' }),
    ],
    containers: [makeGuest(200, { type: 'lxc', name: 'dns', node: 'pve2' })],
  })
  const api = createWorkerApi({ socket: createFakeDeps().deps, store, schedule: () => {} })
  const models: GuestUrlsViewModel[] = []
  const id = api.subscribe(REQUEST, (model) => models.push(model))
  return { api, models, id }
}

describe('guestUrls view kind', () => {
  it('groups the guests by node, sorted by VMID, with the keys their URLs are stored under', () => {
    const { models } = setup()
    const model = models[0]!
    expect(labels(model)).toEqual([
      '# pve1 (2)',
      'web-01',
      'db-main',
      '# pve2 (2)',
      'web-02',
      'dns',
    ])
    expect(model).toMatchObject({ total: 4, matched: 4, rowCount: 6, search: '' })
    const dns = model.rows.find(
      (row): row is GuestUrlRow => row.kind === 'guest' && row.vmid === 200,
    )
    expect(dns).toEqual({
      kind: 'guest',
      id: 'lab-pve2-200',
      nodeVmidKey: 'pve2-200',
      instance: 'lab',
      node: 'pve2',
      vmid: 200,
      name: 'dns',
      type: 'LXC',
    })
  })

  it('filters on every word of name, VMID, node and type as the request changes', () => {
    const { api, models, id } = setup()
    api.update(id, { ...REQUEST, search: 'WEB' })
    expect(labels(models.at(-1)!)).toEqual(['# pve1 (1)', 'web-01', '# pve2 (1)', 'web-02'])
    api.update(id, { ...REQUEST, search: ' pve2  lxc ' })
    expect(labels(models.at(-1)!)).toEqual(['# pve2 (1)', 'dns'])
    api.update(id, { ...REQUEST, search: '110' })
    expect(labels(models.at(-1)!)).toEqual(['# pve1 (1)', 'db-main'])
    api.update(id, { ...REQUEST, search: 'nothing-like-this' })
    expect(models.at(-1)).toMatchObject({ matched: 0, rowCount: 0, rows: [], total: 4 })
  })

  it('pushes nothing for a request that changes nothing', () => {
    const { api, models, id } = setup()
    api.update(id, { ...REQUEST })
    expect(models).toHaveLength(1)
  })
})

describe('guest URLs view', () => {
  const stamp = (n: number): GuestStamp => ({
    data: n,
    structure: 1,
    identity: 1,
    placement: 1,
    labels: 1,
  })

  it('a metrics-only change (same structure, identity and placement) recomputes nothing', () => {
    const view = createGuestUrlsView()
    const guests = [makeGuest(1), makeGuest(2)]
    const first = view.compute({ guests, stamp: stamp(1) }, REQUEST)
    const second = view.compute(
      { guests: guests.map((g) => ({ ...g, cpu: 0.9 })), stamp: stamp(2) },
      REQUEST,
    )
    expect(second).toBe(first)
    expect(view.runs).toEqual({ base: 1, filter: 1, window: 1 })
    const renamed = view.compute(
      {
        guests: [makeGuest(1, { name: 'renamed' }), makeGuest(2)],
        stamp: { ...stamp(3), identity: 2 },
      },
      REQUEST,
    )
    expect(renamed.rows[1]).toMatchObject({ name: 'renamed' })
  })

  it('windows 100,000 guests: only the asked rows cross, the search is one pass', () => {
    const guests = Array.from({ length: 100_000 }, (_, i) =>
      makeGuest(100 + i, { node: `pve${i % 20}`, name: `guest-${i}` }),
    )
    const view = createGuestUrlsView()
    const started = performance.now()
    const all = view.compute({ guests }, { ...REQUEST, window: { start: 1000, count: 40 } })
    const built = performance.now()
    const found = view.compute(
      { guests },
      { ...REQUEST, search: 'guest-4242', window: { start: 0, count: 40 } },
    )
    const searched = performance.now()
    // Reported, not asserted: wall-clock numbers depend on the machine.
    console.info(
      `guestUrls at 100k: build ${(built - started).toFixed(0)} ms, search ${(searched - built).toFixed(0)} ms`,
    )
    expect(all).toMatchObject({ total: 100_000, matched: 100_000, rowCount: 100_020 })
    expect(all.rows).toHaveLength(40)
    // guest-4242, guest-42420..42429: 11 guests on their nodes.
    expect(found.matched).toBe(11)
    expect(found.rows.filter((row) => row.kind === 'guest').map((row) => row.name)).toContain(
      'guest-4242',
    )
    expect(view.runs.base).toBe(1)
  })
})
