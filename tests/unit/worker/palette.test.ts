// The worker's palette call over its store: the sources follow the live data (a rename, a new
// alert) and are built once per version of a list, not per keystroke.
import { describe, expect, it, vi } from 'vitest'
import * as sources from '../../../src/shared/views/palette-sources.ts'
import { createPaletteSearch } from '../../../src/worker/palette.ts'
import { createStateStore } from '../../../src/worker/store.ts'

const guest = (id: string, vmid: number, name: string) => ({
  id,
  instance: 'lab',
  node: 'pve1',
  vmid,
  name,
  type: 'qemu',
  status: 'running',
})

const labels = (result: ReturnType<ReturnType<typeof createPaletteSearch>>, kind: string) =>
  result.groups.find((group) => group.kind === kind)?.items.map((item) => item.label) ?? []

describe('palette search in the worker', () => {
  it('finds what the store holds now: a renamed guest, a new alert, a datastore', () => {
    const store = createStateStore()
    store.applyFull(
      {
        nodes: [{ id: 'lab-pve1', name: 'pve1', instance: 'lab', status: 'online' }],
        vms: [guest('g1', 100, 'web-01'), guest('g2', 101, 'db-01')],
        pbs: [{ id: 'pbs-b1', name: 'b1', status: 'online', datastores: [{ name: 'tank' }] }],
      },
      1,
    )
    const search = createPaletteSearch(store)
    expect(labels(search({ query: 'web' }), 'guest')).toEqual(['web-01'])
    store.applyDelta(
      {
        upsert: {
          vms: [{ id: 'g1', name: 'shop-01' }],
          activeAlerts: [
            { id: 'a1', resourceName: 'db-01', message: 'CPU at 97%', level: 'critical' },
          ],
        },
      },
      2,
    )
    expect(labels(search({ query: 'web' }), 'guest')).toEqual([])
    expect(labels(search({ query: 'shop' }), 'guest')).toEqual(['shop-01'])
    expect(labels(search({ query: 'db-01' }), 'alert')).toEqual(['db-01'])
    expect(search({ query: 'tank' }).groups[0]!.items[0]!.href).toBe('/storage/pbs-b1%3Atank')
  })

  it('builds the guest source once per version of the guest list', () => {
    const build = vi.spyOn(sources, 'createGuestSource')
    const store = createStateStore()
    store.applyFull({ vms: [guest('g1', 100, 'web-01')] }, 1)
    const search = createPaletteSearch(store)
    for (const query of ['w', 'we', 'web']) search({ query })
    expect(build).toHaveBeenCalledTimes(1)
    // A metric update keeps the list; a new guest replaces it.
    store.applyDelta({ upsert: { vms: [{ id: 'g1', cpu: 0.5 }] } }, 2)
    search({ query: 'web-' })
    expect(build).toHaveBeenCalledTimes(1)
    store.applyDelta({ upsert: { vms: [guest('g2', 101, 'web-02')] } }, 3)
    expect(labels(search({ query: 'web-' }), 'guest')).toEqual(['web-01', 'web-02'])
    expect(build).toHaveBeenCalledTimes(2)
    build.mockRestore()
  })

  it('offers the wall view, or the way out of it', () => {
    const search = createPaletteSearch(createStateStore())
    expect(labels(search({ query: 'wall' }), 'action')).toEqual(['Wall view'])
    expect(labels(search({ query: 'wall', wallView: true }), 'action')).toEqual(['Exit wall view'])
  })
})
