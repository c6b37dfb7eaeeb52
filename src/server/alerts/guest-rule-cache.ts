// Which custom rule applies to which guest, remembered between polls (issue 24 item 1). Matching
// every guest against every rule's filters on every poll held the event loop for seconds with a
// few hundred rules; a guest's rule changes only when the rules change or when a field the rules
// read changes, so most polls match nobody again.
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
import type { ThresholdResolver } from '../../shared/views/alert-thresholds.ts'

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
}

interface RulePlan {
  /** What the matching depends on: the rules' filters in precedence order. */
  signature: string
  /** Per rule: its filters read only identity fields. */
  stable: readonly boolean[]
  /** Indices of the rules that are not stable, ascending. */
  volatile: readonly number[]
}

interface CollectionCache {
  signature: string
  entries: Entry[]
}

const plans = new WeakMap<ThresholdResolver, RulePlan>()
/** One cache per guest collection (vms, containers): positions follow the collection's order. */
const caches = new Map<string, CollectionCache>()

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

/**
 * The index in resolver.rules of the rule that applies to each guest of one collection (-1 when
 * none), as resolver.matchRule answers it; null when the config has no enabled rules. `key` names
 * the collection ('vms', 'containers'): its answers are remembered for the next poll.
 */
export function matchGuestRules(
  resolver: ThresholdResolver,
  key: string,
  guests: readonly Guest[],
): Int32Array | null {
  const rules = resolver.rules
  if (rules.length === 0) return null
  const plan = planOf(resolver)
  let cache = caches.get(key)
  if (!cache || cache.signature !== plan.signature) {
    caches.set(key, (cache = { signature: plan.signature, entries: [] }))
  }
  const entries = cache.entries
  const volatile = plan.volatile
  const none = rules.length
  const out = new Int32Array(guests.length)
  // Built at the first guest not at its previous position (added, removed, reordered): until then
  // every earlier position held its own entry, so the map built then has every previous entry.
  let byId: Map<string, Entry> | null = null
  for (let i = 0; i < guests.length; i++) {
    const guest = guests[i]!
    let entry = entries[i]
    if (entry === undefined || entry.id !== guest.id) {
      if (byId === null) {
        byId = new Map()
        for (const e of entries) byId.set(e.id, e)
      }
      entry = byId.get(guest.id)
    }
    if (entry === undefined) {
      entry = {
        id: guest.id,
        name: guest.name,
        vmid: guest.vmid,
        node: guest.node,
        status: guest.status,
        tags: guest.tags,
        stableAt: firstStable(resolver, plan, guest),
      }
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
    } else if (entry.tags !== guest.tags) {
      entry.tags = guest.tags // equal: keep the newest array, let the old poll's go
    }
    entries[i] = entry
    let at = entry.stableAt
    for (let v = 0; v < volatile.length; v++) {
      const index = volatile[v]!
      if (index >= at) break
      if (rules[index]!.test(guest)) {
        at = index
        break
      }
    }
    out[i] = at === none ? -1 : at
  }
  entries.length = guests.length
  return out
}
