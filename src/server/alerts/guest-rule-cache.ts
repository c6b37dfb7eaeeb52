// Which custom rule applies to which guest, remembered between polls (issue 24 item 1). Matching
// every guest against every rule's filters on every poll held the event loop for seconds with a
// few hundred rules; a guest's rule changes only when the rules change or when a field the rules
// read changes, so most polls match nobody again. And the engine asks only about guests whose rule
// matters: one with an open alert, not running, or at or above the lowest trigger any rule,
// default or override sets (resolver.lowestGuestTriggers); every other guest exceeds nothing under
// any rule (evaluate-guests.ts).
//
// A rule whose filters read only a guest's identity fields (free text, `name:`, `node:`, `vmid:`,
// `tags:`: name, vmid, node, status, tags) is "stable": its answer per guest is kept with those
// fields and recomputed only when one of them changes or the rules change. A rule with any other
// term (`cpu>80`, `type:qemu`, `osName:…`) reads fields that change with every poll, so it is
// tested again on every poll, and only for guests whose stable match it outranks. The answer is
// always the one resolver.matchRule gives (tests compare both).
//
// The memory lives in this module, between evaluations: the engine stays a function of its
// inputs (a cached answer is checked against the guest's fields before use), this only saves work.
import type { AlertRule } from '../../shared/model/alerts.ts'
import type { Guest } from '../../shared/model/state.ts'
import { parseGuestSearch } from '../../shared/search/index.ts'
import type { GuestThresholds, ThresholdResolver } from '../../shared/views/alert-thresholds.ts'

/** Per guest: the fields stable rules read, and the index of the first stable rule that matches. */
interface Entry {
  id: string
  name: string
  vmid: number
  node: string
  status: string
  tags: unknown
  /** Index in resolver.rules of the first matching stable rule; rules.length when none. */
  stableAt: number
  /** Where it was asked for in the last evaluation's order of lookups. */
  at: number
}

interface RulePlan {
  /** What the matching depends on: the rules' filters in precedence order. */
  signature: string
  /** Per rule: its filters read only identity fields. */
  stable: readonly boolean[]
  /** Indices of the rules that are not stable, ascending. */
  volatile: readonly number[]
}

/** The remembered matches of one set of rules, in two generations (see ROTATE_EVERY). */
interface Memory {
  signature: string
  current: Map<string, Entry>
  previous: Map<string, Entry>
  evaluations: number
  /** The entries in the order the last evaluation asked for them. */
  order: Entry[]
}

/**
 * Every this many evaluations the entries not used since the last rotation are dropped: the
 * memory holds the guests looked up within the last 30 to 60 polls, whatever the churn.
 */
const ROTATE_EVERY = 30

const plans = new WeakMap<ThresholdResolver, RulePlan>()
let memory: Memory | null = null

/** True when every term of the rule's filters reads only name, vmid, node, status or tags. */
export function readsIdentityOnly(rule: AlertRule): boolean {
  for (const filter of rule.filterConditions.filters) {
    if (typeof filter.rawText !== 'string' || filter.rawText.trim() === '') continue
    for (const term of parseGuestSearch(filter.rawText).terms) {
      const kind = term.plan.kind
      if (kind !== 'text' && kind !== 'tags' && kind !== 'fieldText') return false
    }
  }
  return true
}

function planOf(resolver: ThresholdResolver): RulePlan {
  let plan = plans.get(resolver)
  if (plan) return plan
  const rules = resolver.rules.map((r) => r.rule)
  const stable = rules.map(readsIdentityOnly)
  const volatile: number[] = []
  stable.forEach((s, i) => s || volatile.push(i))
  const signature = JSON.stringify(
    rules.map((r) => [
      r.filterConditions.logicalOperator,
      r.filterConditions.filters.map((f) => f.rawText),
    ]),
  )
  plans.set(resolver, (plan = { signature, stable, volatile }))
  return plan
}

function sameTags(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function firstStable(resolver: ThresholdResolver, plan: RulePlan, guest: Guest): number {
  const rules = resolver.rules
  for (let i = 0; i < rules.length; i++) if (plan.stable[i] && rules[i]!.test(guest)) return i
  return rules.length
}

/** The rule and thresholds of a guest, answered from the remembered matches. */
export interface GuestRuleLookup {
  /** The index in resolver.rules of the rule that applies to the guest, -1 when none. */
  ruleAt(guest: Guest): number
  /** resolver.guest(guest), with the rule found through ruleAt. */
  thresholds(guest: Guest): GuestThresholds
}

/**
 * The lookup of one evaluation; null when the config has no enabled rules. Called once per
 * evaluation: it counts evaluations for the memory's rotation.
 */
export function createGuestRuleLookup(resolver: ThresholdResolver): GuestRuleLookup | null {
  const rules = resolver.rules
  if (rules.length === 0) return null
  const plan = planOf(resolver)
  if (memory === null || memory.signature !== plan.signature) {
    memory = {
      signature: plan.signature,
      current: new Map(),
      previous: new Map(),
      evaluations: 0,
      order: [],
    }
  }
  const mem = memory
  // Polls list the guests in the same order, so the engine asks for them in the order it asked
  // last time: a cursor over that order finds most entries with one id comparison instead of
  // hashing a fresh id string per guest. A miss falls back to the maps and moves the cursor.
  const last = mem.order
  const order: Entry[] = []
  mem.order = order
  let cursor = 0
  let lastById: Map<string, Entry> | null = null
  if (++mem.evaluations % ROTATE_EVERY === 0) {
    mem.previous = mem.current
    mem.current = new Map()
  }
  const volatile = plan.volatile
  const none = rules.length

  const find = (guest: Guest): Entry | undefined => {
    const next = last[cursor]
    if (next !== undefined && next.id === guest.id) {
      cursor++
      return next
    }
    let entry = mem.current.get(guest.id)
    if (entry === undefined) {
      entry = mem.previous.get(guest.id)
      if (entry !== undefined) mem.current.set(entry.id, entry)
    }
    if (entry === undefined) {
      // Entries found by the cursor alone may have left the maps: look in the last order too.
      if (lastById === null) {
        lastById = new Map()
        for (const e of last) lastById.set(e.id, e)
      }
      entry = lastById.get(guest.id)
    }
    if (entry !== undefined && last[entry.at] === entry) cursor = entry.at + 1
    return entry
  }

  const ruleAt = (guest: Guest): number => {
    let entry = find(guest)
    if (entry === undefined) {
      entry = {
        id: guest.id,
        name: guest.name,
        vmid: guest.vmid,
        node: guest.node,
        status: guest.status,
        tags: guest.tags,
        stableAt: firstStable(resolver, plan, guest),
        at: 0,
      }
      mem.current.set(entry.id, entry)
    } else if (
      entry.name !== guest.name ||
      entry.vmid !== guest.vmid ||
      entry.node !== guest.node ||
      entry.status !== guest.status ||
      !sameTags(entry.tags, guest.tags)
    ) {
      entry.name = guest.name
      entry.vmid = guest.vmid
      entry.node = guest.node
      entry.status = guest.status
      entry.tags = guest.tags
      entry.stableAt = firstStable(resolver, plan, guest)
    }
    entry.at = order.length
    order.push(entry)
    let at = entry.stableAt
    for (let v = 0; v < volatile.length; v++) {
      const index = volatile[v]!
      if (index >= at) break
      if (rules[index]!.test(guest)) {
        at = index
        break
      }
    }
    return at === none ? -1 : at
  }

  return { ruleAt, thresholds: (guest) => resolver.guestForRule(guest, ruleAt(guest)) }
}
