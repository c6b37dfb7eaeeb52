import { describe, expect, it } from 'vitest'
import type { Guest } from '../../../../src/shared/model/state.ts'
import type { PbsInstance } from '../../../../src/shared/model/backups.ts'
import {
  MATCH_TIERS,
  buildMatchField,
  normalizeQuery,
  scanField,
  scanVmids,
} from '../../../../src/shared/views/palette-match.ts'
import { searchPalette, type PaletteSource } from '../../../../src/shared/views/palette.ts'
import {
  PALETTE_PAGES,
  PALETTE_SETTINGS,
  createEntrySource,
  paletteActions,
} from '../../../../src/shared/views/palette-pages.ts'
import {
  createAlertSource,
  createGuestSource,
  createNodeSource,
  createPbsSource,
} from '../../../../src/shared/views/palette-sources.ts'
import type { PaletteResult } from '../../../../src/shared/views/palette-types.ts'
import { makeGuest, makeNode } from './guest-fixtures.ts'

const scan = (names: string[], query: string) => {
  const hits: Array<[number, number]> = []
  scanField(buildMatchField(names), normalizeQuery(query), (index, tier) =>
    hits.push([index, tier]),
  )
  return hits
}

const labels = (result: PaletteResult, kind?: string) =>
  result.groups
    .filter((group) => !kind || group.kind === kind)
    .flatMap((g) => g.items.map((i) => i.label))

const guest = (vmid: number, name: string, patch: Partial<Guest> = {}) =>
  makeGuest(vmid, { name, ...patch })

const STATIC: PaletteSource[] = [
  createEntrySource('page', PALETTE_PAGES, true),
  createEntrySource('setting', PALETTE_SETTINGS, false),
  createEntrySource('action', paletteActions(false), true),
]

describe('scanField', () => {
  it('grades each name once: exact, prefix, word start, anywhere', () => {
    expect(scan(['web', 'web-01', 'db-web', 'cobweb', 'mail'], 'web')).toEqual([
      [0, MATCH_TIERS.exact],
      [1, MATCH_TIERS.prefix],
      [2, MATCH_TIERS.word],
      [3, MATCH_TIERS.substring],
    ])
  })

  it('finds a word start that follows an earlier occurrence inside a word', () => {
    // 'cobweb-web': the first 'web' is inside a word, the second starts one.
    expect(scan(['cobweb-web'], 'web')).toEqual([[0, MATCH_TIERS.word]])
  })

  it('ignores case and outer whitespace, and never matches across two names', () => {
    expect(scan(['Alpha', 'BETA'], '  beta ')).toEqual([[1, MATCH_TIERS.exact]])
    expect(scan(['ab', 'cd'], 'bc')).toEqual([])
  })

  it('matches nothing for an empty query or an empty list', () => {
    expect(scan(['a'], '')).toEqual([])
    expect(scan([], 'a')).toEqual([])
  })
})

describe('scanVmids', () => {
  const vmids = Int32Array.from([100, 101, 1000, 1010, 2100, 10])
  const hits = (query: string) => {
    const out: Array<[number, number]> = []
    scanVmids(vmids, query, (index, tier) => out.push([index, tier]))
    return out
  }

  it('marks the exact VMID first and the VMIDs it starts as other', () => {
    expect(hits('10')).toEqual([
      [0, MATCH_TIERS.other],
      [1, MATCH_TIERS.other],
      [2, MATCH_TIERS.other],
      [3, MATCH_TIERS.other],
      [5, MATCH_TIERS.vmid],
    ])
    expect(hits('101')).toEqual([
      [1, MATCH_TIERS.vmid],
      [3, MATCH_TIERS.other],
    ])
  })

  it('takes no text and no leading zeros', () => {
    expect(hits('web')).toEqual([])
    expect(hits('010')).toEqual([])
  })
})

describe('searchPalette', () => {
  const guests = [
    guest(100, 'web-01'),
    guest(101, 'db-01'),
    guest(102, 'web'),
    guest(103, 'cobweb', { node: 'pve2' }),
    guest(104, 'legacy-web-frontend'),
    guest(105, 'webmail'),
    guest(4242, 'mail', { node: 'pve2' }),
  ]
  const sources = () => [...STATIC, createGuestSource(guests)]

  it('ranks an exact name, then prefixes (shorter first), then word starts, then substrings', () => {
    const result = searchPalette(sources(), 'Web')
    expect(labels(result, 'guest')).toEqual([
      'web',
      'web-01',
      'webmail',
      'legacy-web-frontend',
      'cobweb',
    ])
  })

  it('puts the guest with that exact VMID first, above names holding the digits', () => {
    const result = searchPalette([createGuestSource([guest(1, 'app-4242'), ...guests])], '4242')
    expect(labels(result, 'guest')).toEqual(['mail', 'app-4242'])
    expect(result.groups[0]!.items[0]!.detail).toBe('VM 4242 on pve2')
  })

  it('finds guests by their node, below any name match', () => {
    const result = searchPalette(sources(), 'pve2')
    expect(labels(result, 'guest')).toEqual(['mail', 'cobweb'])
  })

  it('keeps the best few of a kind and counts every match', () => {
    const many = Array.from({ length: 200 }, (_, i) => guest(1000 + i, `node-app-${i}`))
    const result = searchPalette([createGuestSource(many)], 'app')
    const group = result.groups[0]!
    expect(group.total).toBe(200)
    expect(group.items).toHaveLength(15)
    // Word starts all; the shorter names (one digit) first, then by name.
    expect(group.items.slice(0, 3).map((item) => item.label)).toEqual([
      'node-app-0',
      'node-app-1',
      'node-app-2',
    ])
  })

  it('orders the groups by their best match; ties go to pages first', () => {
    const nodes = [makeNode('web'), makeNode('pve1')]
    const result = searchPalette([...sources(), createNodeSource(nodes)], 'web')
    // Exact names in guests and nodes (guests first by kind order), then the setting 'Webhooks'
    // (prefix), then the page found by its keywords.
    expect(result.groups.map((group) => group.kind)).toEqual(['guest', 'node', 'setting', 'page'])
    expect(searchPalette(sources(), 'stor').groups[0]!.kind).toBe('page')
  })

  it('lists the pages and actions for an empty query, not the estate', () => {
    const result = searchPalette(sources(), '   ')
    expect(result.groups.map((group) => group.kind)).toEqual(['page', 'action'])
    expect(labels(result, 'page')).toEqual(PALETTE_PAGES.map((page) => page.label))
  })

  it('finds settings by their name and by their keywords', () => {
    expect(labels(searchPalette(STATIC, 'quiet'))[0]).toBe('Quiet hours')
    expect(labels(searchPalette(STATIC, 'token'), 'setting')).toEqual(['API token'])
    expect(labels(searchPalette(STATIC, 'slack'), 'setting')).toEqual(['Webhooks'])
    const kiosk = searchPalette(STATIC, 'kiosk').groups.find((group) => group.kind === 'action')
    expect(kiosk?.items[0]).toMatchObject({ label: 'Wall view', action: 'wall-view', href: '' })
  })

  it('links each kind to its page', () => {
    const pbs: PbsInstance[] = [
      {
        id: 'pbs-main',
        name: 'main',
        status: 'online',
        datastores: [{ name: 'tank' }, { name: 'offsite' }],
      } as PbsInstance,
    ]
    const alerts = [
      {
        id: 'a1',
        resourceName: 'web-01',
        message: 'CPU at 97%',
        node: 'pve1',
        level: 'critical',
      },
    ]
    const all = [
      createGuestSource(guests),
      createNodeSource([makeNode('pve1')]),
      createPbsSource(pbs),
      createAlertSource(alerts),
    ]
    const items = (query: string) => searchPalette(all, query).groups.flatMap((g) => g.items)
    expect(items('web-01').map((item) => item.href)).toEqual([
      '/guests/lab-pve1-100',
      '/alerts/overview',
    ])
    expect(items('tank')[0]).toMatchObject({ href: '/storage/pbs-main%3Atank', label: 'tank' })
    expect(items('main')[0]).toMatchObject({
      href: '/pbs/pbs-main',
      detail: 'Backup server · online',
    })
    expect(items('97%')[0]).toMatchObject({ kind: 'alert', detail: 'Critical: CPU at 97%' })
    expect(items('pve1').find((item) => item.kind === 'node')?.href).toBe('/nodes/lab-pve1')
  })
})
