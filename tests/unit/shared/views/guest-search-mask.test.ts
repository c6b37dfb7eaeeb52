// The column evaluation of the main search must mean exactly what the per-guest predicates mean.
import { describe, expect, it } from 'vitest'
import type { Guest } from '../../../../src/shared/model/state.ts'
import { compileGuestSearch, parseGuestSearch } from '../../../../src/shared/search/index.ts'
import { createGuestColumns } from '../../../../src/shared/views/guest-columns.ts'
import { indexGuestNodes } from '../../../../src/shared/views/guest-nodes.ts'
import {
  createTermMaskCache,
  evaluateSearchMask,
} from '../../../../src/shared/views/guest-search-mask.ts'
import { assignGuestSlots, describeSlots } from '../../../../src/shared/views/guest-slots.ts'
import { createRng } from '../../../../src/server/sim/prng.ts'
import { makeGuest, makeNode } from './guest-fixtures.ts'
import { SEARCH_SET } from '../../../../bench/search-set.ts'

const NAMES = ['Web-Prod', 'db', 'cache', 'ÄPI-gateway', 'mail\u0001x', 'ci runner', '']
const TAGS = ['production', 'Staging', 'dev', 'backup', 'web', 'k8s']
const STATUSES = ['running', 'stopped', 'paused', 'Running']

function estate(count: number): { guests: Guest[]; nodes: ReturnType<typeof makeNode>[] } {
  const random = createRng(42).next
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const nodes = [
    makeNode('pve1'),
    makeNode('pve2', { status: 'offline', uptime: 0 }),
    makeNode('PVE10'),
  ]
  const guests: Guest[] = []
  for (let i = 0; i < count; i++) {
    const tags = random() < 0.3 ? [] : [pick(TAGS), ...(random() < 0.3 ? [pick(TAGS)] : [])]
    const guest = makeGuest(100 + i, {
      node: pick(['pve1', 'pve2', 'PVE10', 'ghost']),
      name: `${pick(NAMES)}${random() < 0.5 ? i : ''}`,
      type: random() < 0.5 ? 'qemu' : 'lxc',
      status: pick(STATUSES),
      uptime: Math.floor(random() * 10_000),
      cpu: random() < 0.05 ? (undefined as unknown as number) : random(),
      memory: { usage: random() * 100, used: 1, total: 2 },
      disk: { usage: random() < 0.1 ? -1 : random() * 100, used: 1, total: 2 },
      diskRead: Math.floor(random() * 2e7),
      tags: random() < 0.05 ? ('prod;web' as unknown as string[]) : tags,
    })
    if (random() < 0.03) (guest as unknown as Record<string, unknown>).name = 42
    guests.push(guest)
  }
  return { guests, nodes }
}

const SEARCHES = [
  ...SEARCH_SET.map((item) => item.search),
  'WEB',
  'äpi',
  '10',
  '1',
  'run',
  'Running',
  'paused OR stopped',
  'pve1',
  'node:PVE1',
  'node:ghost',
  'name:web-',
  'name:"ci runner"',
  'vmid:12',
  'tags:STAG',
  'tags:prod,web',
  'tags:prod;web',
  'cpu<5',
  'cpu=50',
  'disk<10',
  'disk<0',
  'disk=-1',
  'uptime>=5000',
  'cpus=2',
  'diskRead<100000',
  'status:run',
  'type:lxc',
  'osName:x',
  '"web prod"',
  'mail\u0001x',
  'or',
  'AND',
  'web AND OR db',
  'db OR cache AND cpu>50 OR tags:dev',
  'foo>1',
  'cpu>',
]

describe('evaluateSearchMask', () => {
  const { guests, nodes } = estate(3000)
  const index = indexGuestNodes(nodes)
  const slots = assignGuestSlots(guests, index)
  const info = describeSlots(slots, index)
  const stamp = { data: 1, structure: 1, identity: 1, placement: 1, labels: 1 }
  const columns = createGuestColumns()
  const context = {
    guests,
    stamp,
    columns,
    slotOf: slots.slotOf,
    slotNames: info.infos.map((node) => node.name.toLowerCase()),
  }

  it.each(SEARCHES)('agrees with the per-guest predicate for %j', (search) => {
    const predicate = compileGuestSearch(search)
    const mask = evaluateSearchMask(parseGuestSearch(search), context)
    const expected = guests.map((guest) => predicate(guest))
    const actual = guests.map((_, i) => (mask === null ? true : mask[i] === 1))
    expect(actual).toEqual(expected)
  })

  it('matches nothing when no guest fits, everything for an empty search', () => {
    expect(evaluateSearchMask(parseGuestSearch(''), context)).toBeNull()
    expect(evaluateSearchMask(parseGuestSearch('zzzz-none'), context)?.some(Boolean)).toBe(false)
  })
})

describe('evaluateSearchMask with the term cache', () => {
  it('reuses text masks across metric updates but sees status, name and tag changes', () => {
    const { guests, nodes } = estate(500)
    const index = indexGuestNodes(nodes)
    const slots = assignGuestSlots(guests, index)
    const slotNames = describeSlots(slots, index).infos.map((node) => node.name.toLowerCase())
    const cache = createTermMaskCache()
    const columns = createGuestColumns()
    let stamp = { data: 1, structure: 1, identity: 1, placement: 1, labels: 1 }
    const agree = (search: string) => {
      const mask = evaluateSearchMask(parseGuestSearch(search), {
        guests,
        stamp,
        columns,
        cache,
        slotOf: slots.slotOf,
        slotNames,
      })
      const predicate = compileGuestSearch(search)
      expect(guests.map((_, i) => mask?.[i] === 1)).toEqual(guests.map((g) => predicate(g)))
    }
    agree('run OR tags:dev')
    const first = cache.masks.get('t\u0000run')
    // A poll: statuses change (data only); the text mask is reused, the status part is not.
    guests[0]!.status = guests[0]!.status === 'running' ? 'stopped' : 'running'
    stamp = { ...stamp, data: 2 }
    agree('run OR tags:dev')
    expect(cache.masks.get('t\u0000run')).toBe(first)
    // A rename and a new tag move identity and labels: recomputed.
    guests[1]!.name = 'runner-renamed'
    guests[2]!.tags = ['dev']
    stamp = { ...stamp, data: 3, identity: 2, labels: 2 }
    agree('run OR tags:dev')
    expect(cache.masks.get('t\u0000run')).not.toBe(first)
  })
})
