// The remembered rule matches (guest-rule-cache.ts): the same answers as matching every guest
// against every rule, over polls that change what the rules read; and, through the engine, rules
// that take effect when they change and guests that are matched again when their fields change.
import { describe, expect, it } from 'vitest'
import type { AlertConfig, AlertRule } from '../../../../src/shared/model/alerts.ts'
import type { Guest } from '../../../../src/shared/model/state.ts'
import { getThresholdResolver } from '../../../../src/shared/views/alert-thresholds.ts'
import { createGuestRuleLookup } from '../../../../src/server/alerts/guest-rule-cache.ts'
import { Driver, instantConfig, kinds, makeGuest, makeState } from './engine-fixture.ts'

function rule(id: string, filters: string[], op: 'AND' | 'OR', priority: number): AlertRule {
  return {
    id,
    name: id,
    description: '',
    enabled: true,
    priority,
    filterConditions: {
      logicalOperator: op,
      filters: filters.map((rawText) => ({ type: 'text', field: '', value: rawText, rawText })),
    },
    thresholds: { cpu: { trigger: 50, clear: 45 } },
    notifications: {},
  }
}

/** A seeded generator (mulberry32): the same polls on every run. */
function seeded(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const TAGS = ['db', 'web', 'prod', 'staging', 'eu']
const NAMES = ['web', 'db', 'cache', 'api']
const NODES = ['pve1', 'pve2', 'pve3']

function randomGuest(vmid: number, random: () => number): Guest {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const node = pick(NODES)
  return makeGuest(vmid, {
    id: `lab-${node}-${vmid}`,
    node,
    name: `${pick(NAMES)}-${vmid}`,
    status: random() < 0.9 ? 'running' : 'stopped',
    type: random() < 0.6 ? 'qemu' : 'lxc',
    cpu: random(),
    tags: random() < 0.7 ? [pick(TAGS)] : [],
  })
}

/** The next poll: new objects; some guests renamed, retagged, moved, stopped, added or removed. */
function nextPoll(guests: Guest[], random: () => number, nextVmid: () => number): Guest[] {
  const out: Guest[] = []
  for (const g of guests) {
    const r = random()
    if (r < 0.02) continue // removed
    const copy: Guest = { ...g, cpu: random(), tags: [...(g.tags as string[])] }
    if (r < 0.05) copy.tags = random() < 0.5 ? [] : [TAGS[Math.floor(random() * TAGS.length)]!]
    else if (r < 0.07) copy.name = `${NAMES[Math.floor(random() * NAMES.length)]}-${g.vmid}`
    else if (r < 0.08) {
      copy.node = NODES[Math.floor(random() * NODES.length)]!
      copy.id = `lab-${copy.node}-${g.vmid}`
    } else if (r < 0.1) copy.status = g.status === 'running' ? 'stopped' : 'running'
    out.push(copy)
    if (random() < 0.02) out.push(randomGuest(nextVmid(), random)) // added in the middle
  }
  // Now and then the whole order changes.
  if (random() < 0.2) out.reverse()
  return out
}

const RULES: AlertRule[] = [
  rule('tags-db', ['tags:db'], 'AND', 5),
  rule('web-on-pve2', ['name:web', 'node:pve2'], 'AND', 5),
  rule('hot', ['cpu>70'], 'AND', 4), // reads a metric: tested on every poll
  rule('text', ['cache', 'prod'], 'OR', 3),
  rule('containers', ['type:lxc'], 'AND', 6), // a field outside the identity: tested every poll
  rule('vmid', ['vmid:12'], 'AND', 1),
  rule('stopped', ['stopped'], 'AND', 2),
]

describe('createGuestRuleLookup', () => {
  it('answers what resolver.matchRule answers, poll after poll, as guests and rules change', () => {
    const random = seeded(7)
    let vmid = 100
    const nextVmid = () => vmid++
    let guests = Array.from({ length: 400 }, () => randomGuest(nextVmid(), random))
    let config: AlertConfig = instantConfig({ customRules: RULES })
    let mismatches = 0
    let rematched = 0
    for (let poll = 0; poll < 70; poll++) {
      if (poll === 20) {
        // A rules change: other filters and another precedence.
        config = instantConfig({
          customRules: [rule('eu', ['tags:eu'], 'AND', 9), ...RULES.slice(2)],
        })
      }
      const resolver = getThresholdResolver(config)
      const lookup = createGuestRuleLookup(resolver)!
      // Every third poll asks about half of the guests only, as the engine asks about some.
      const asked = guests.filter((_, i) => poll % 3 !== 0 || i % 2 === 0)
      const cached = asked.map((g) => lookup.ruleAt(g))
      const plain = asked.map((g) => resolver.matchRule(g))
      for (let i = 0; i < asked.length; i++) if (cached[i] !== plain[i]) mismatches++
      rematched += plain.filter((at) => at >= 0).length
      guests = nextPoll(guests, random, nextVmid)
    }
    expect(mismatches).toBe(0)
    expect(rematched).toBeGreaterThan(1000) // the rules did match guests
  })

  it('answers null without enabled rules', () => {
    const resolver = getThresholdResolver(instantConfig())
    expect(createGuestRuleLookup(resolver)).toBeNull()
  })
})

describe('custom rules in the engine', () => {
  const dbRule = rule('db', ['tags:db'], 'AND', 1) // cpu trigger 50, clear 45
  const id = 'lab-pve1-101-cpu'

  it('matches a guest again when its tags change, both ways', () => {
    const driver = new Driver(instantConfig({ customRules: [dbRule] }))
    const at = (tags: string[]) => makeState({ vms: [makeGuest(101, { cpu: 0.6, tags })] })
    expect(kinds(driver.poll(at([])))).toEqual([])
    expect(kinds(driver.poll(at(['db'])))).toEqual([`fired:${id}`])
    expect(driver.active(id)).toMatchObject({ threshold: 50 })
    // Back under the defaults (trigger 80): 60 % no longer meets the trigger in force.
    expect(kinds(driver.poll(at([])))).toEqual([`resolved:${id}:resolved`])
  })

  it('matches a guest again when its name or node changes', () => {
    const webOnPve2 = rule('web2', ['name:web', 'node:pve2'], 'AND', 1)
    const driver = new Driver(instantConfig({ customRules: [webOnPve2] }))
    const guest = (patch: Partial<Guest>) =>
      makeState({ vms: [makeGuest(101, { cpu: 0.6, ...patch })] })
    expect(kinds(driver.poll(guest({ name: 'web-1' })))).toEqual([])
    const moved = { node: 'pve2', id: 'lab-pve2-101' }
    expect(kinds(driver.poll(guest({ name: 'web-1', ...moved })))).toEqual([
      'fired:lab-pve2-101-cpu',
    ])
    expect(kinds(driver.poll(guest({ name: 'db-1', ...moved })))).toEqual([
      'resolved:lab-pve2-101-cpu:resolved',
    ])
  })

  it('applies a rule change on the save, and on the polls after it', () => {
    const driver = new Driver(instantConfig({ customRules: [dbRule] }))
    const state = makeState({ vms: [makeGuest(101, { cpu: 0.6, tags: ['db'] })] })
    expect(kinds(driver.poll(state))).toEqual([`fired:${id}`])
    const webRule = rule('db', ['tags:web'], 'AND', 1)
    expect(kinds(driver.save(state, instantConfig({ customRules: [webRule] })))).toEqual([
      `resolved:${id}:resolved`,
    ])
    expect(kinds(driver.poll(state))).toEqual([])
    // And back: the guest matches again (no re-fire damping here: it would hold the re-crossing).
    const back = instantConfig({ customRules: [dbRule], suppressionWindow: 0 })
    expect(kinds(driver.save(state, back))).toEqual([`fired:${id}`])
  })
})
