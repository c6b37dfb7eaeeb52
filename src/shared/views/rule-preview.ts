// The custom rules editor's live preview (issue 28 item 2): per rule, how many guests its filters
// match and how many it applies to (no rule of higher priority matched them first, spec 001 §4
// Rules precedence), and for the rule being edited a sample of those guests and the active alerts
// on them. Evaluated over columns with the dashboard search's masks (guest-search-mask.ts), so a
// rule's preview at 100,000 guests costs what a search keystroke on the dashboard costs. The
// filters mean what the alert engine's compileRulePredicate means (tests compare both): an enabled
// rule with no filter text matches no guest; AND and OR combine whole filters.
import type { Entity, Guest, PveNode } from '../model/state.ts'
import { parseGuestSearch } from '../search/index.ts'
import { createGuestColumns, type StateColumns } from './guest-columns.ts'
import { indexGuestNodes } from './guest-nodes.ts'
import { createTermMaskCache, evaluateSearchMask } from './guest-search-mask.ts'
import { assignGuestSlots, describeSlots } from './guest-slots.ts'
import type { GuestStamp } from './guest-view.ts'

/** A rule as the editor holds it: only what the matching reads. */
export interface PreviewRule {
  id: string
  enabled: boolean
  priority: number
  logicalOperator: 'AND' | 'OR'
  /** The filters' raw text (our search language). */
  filters: readonly string[]
}

export interface RulePreviewRequest {
  kind: 'rulePreview'
  /** Every rule of the working config, in its stored order (the tie-break of equal priorities). */
  rules: readonly PreviewRule[]
  /** The rule whose guests and alerts are listed; null for counts only. */
  focus: string | null
  /** Guests and alerts listed for the focused rule; at most PREVIEW_LIMIT_MAX. */
  limit: number
}

export const PREVIEW_LIMIT_MAX = 100

export interface RulePreviewGuest {
  id: string
  name: string
  vmid: number
  node: string
  type: string
  status: string
  /** Fraction 0-1, as the dashboard shows it. */
  cpu: number
  /** A rule of higher priority takes this guest (matched, not applied). */
  takenBy?: string
}

export interface RulePreviewAlert {
  id: string
  resourceName: string
  type: string
  level: string
  message: string
}

export interface RulePreviewCount {
  id: string
  /** Guests its filters match (0 for a rule with no filter text). */
  matched: number
  /** Of those, the guests it decides (disabled rules apply to none). */
  applies: number
  /** Active alerts on the guests it applies to. */
  alerts: number
}

export interface RulePreviewModel {
  kind: 'rulePreview'
  version: number
  /** The live guests are here (false before the first data). */
  ready: boolean
  total: number
  counts: RulePreviewCount[]
  /** The focused rule's matched guests (those it applies to first), at most `limit`. */
  guests: RulePreviewGuest[]
  alerts: RulePreviewAlert[]
}

export interface RulePreviewInput {
  guests: readonly Guest[]
  nodes: readonly PveNode[]
  stamp: GuestStamp
  live?: StateColumns
  alerts: readonly Entity[]
  ready: boolean
}

type Result = Omit<RulePreviewModel, 'version'>

/** A view; equal inputs and request give the identical result object (no push). */
export function createRulePreviewView(): {
  compute(input: RulePreviewInput, request: RulePreviewRequest): Result
} {
  const columns = createGuestColumns()
  // One term cache per filter text: a keystroke in one rule re-evaluates only that filter's new
  // terms; the other rules' text masks come from their caches until names or tags change.
  let caches = new Map<string, ReturnType<typeof createTermMaskCache>>()
  let slotsAt = ''
  let slots: { slotOf: Uint32Array; names: string[] } | null = null
  let indexAt = ''
  let indexById: Map<string, number> | null = null
  let last: { input: RulePreviewInput; key: string; result: Result } | null = null

  const slotsOf = (input: RulePreviewInput) => {
    const nodes = indexGuestNodes(input.nodes)
    const at = `${input.stamp.structure}:${input.stamp.placement}:${nodes.signature}`
    if (slots === null || slotsAt !== at) {
      const assigned = assignGuestSlots(input.guests, nodes)
      const names = describeSlots(assigned, nodes).infos.map((node) =>
        typeof node.name === 'string' ? node.name.toLowerCase() : '',
      )
      slots = { slotOf: assigned.slotOf, names }
      slotsAt = at
    }
    return slots
  }
  const guestIndex = (input: RulePreviewInput) => {
    const at = `${input.stamp.structure}`
    if (indexById === null || indexAt !== at) {
      indexById = new Map()
      input.guests.forEach((guest, i) => indexById!.set(guest.id, i))
      indexAt = at
    }
    return indexById
  }

  return {
    compute(input, request) {
      const key = JSON.stringify([request.rules, request.focus, request.limit])
      const same =
        last !== null &&
        last.key === key &&
        last.input.guests === input.guests &&
        last.input.stamp.data === input.stamp.data &&
        last.input.alerts === input.alerts &&
        last.input.nodes === input.nodes &&
        last.input.ready === input.ready
      if (same) return last!.result
      const result = preview(input, request)
      last = { input, key, result }
      return result
    },
  }

  function preview(input: RulePreviewInput, request: RulePreviewRequest): Result {
    const n = input.guests.length
    const { slotOf, names } = slotsOf(input)
    const used = new Map<string, ReturnType<typeof createTermMaskCache>>()
    const evaluate = (text: string) => {
      const cache = used.get(text) ?? caches.get(text) ?? createTermMaskCache()
      used.set(text, cache)
      return evaluateSearchMask(parseGuestSearch(text), {
        guests: input.guests,
        stamp: input.stamp,
        columns,
        ...(input.live ? { live: input.live } : {}),
        cache,
        slotOf,
        slotNames: names,
      })
    }
    // Precedence: higher priority first, then stored order (the engine's sort).
    const order = request.rules
      .map((rule, index) => ({ rule, index }))
      .sort((a, b) => b.rule.priority - a.rule.priority || a.index - b.index)
    // owner[i]: 1 + position in `order` of the enabled rule that takes guest i; 0 for none.
    const owner = new Uint32Array(n)
    const counts = new Map<string, RulePreviewCount>()
    const masks = new Map<string, Uint8Array | null>()
    order.forEach(({ rule }, position) => {
      const count: RulePreviewCount = { id: rule.id, matched: 0, applies: 0, alerts: 0 }
      counts.set(rule.id, count)
      const mask = ruleMask(rule, n, evaluate)
      masks.set(rule.id, mask)
      if (mask === null) return
      for (let i = 0; i < n; i++) {
        if (mask[i] === 0) continue
        count.matched++
        if (rule.enabled && owner[i] === 0) {
          owner[i] = position + 1
          count.applies++
        }
      }
    })
    caches = used
    // Alerts on guests, counted for the rule that takes the guest.
    const index = guestIndex(input)
    const focusPosition = order.findIndex(({ rule }) => rule.id === request.focus)
    const limit = Math.max(0, Math.min(PREVIEW_LIMIT_MAX, Math.floor(request.limit) || 0))
    const alerts: RulePreviewAlert[] = []
    for (const entity of input.alerts) {
      const alert = entity as Partial<Record<string, unknown>>
      const at = typeof alert.resourceId === 'string' ? index.get(alert.resourceId) : undefined
      if (at === undefined || owner[at] === 0) continue
      const rule = order[owner[at]! - 1]!.rule
      counts.get(rule.id)!.alerts++
      if (owner[at] === focusPosition + 1 && alerts.length < limit) {
        alerts.push({
          id: String(alert.id),
          resourceName: String(alert.resourceName ?? ''),
          type: String(alert.type ?? ''),
          level: String(alert.level ?? ''),
          message: String(alert.message ?? ''),
        })
      }
    }
    const guests: RulePreviewGuest[] = []
    const mask = request.focus === null ? null : (masks.get(request.focus) ?? null)
    if (mask !== null && limit > 0) {
      // The guests it takes first, then those a higher rule takes.
      for (const taken of [false, true]) {
        for (let i = 0; i < n && guests.length < limit; i++) {
          if (mask[i] === 0 || (owner[i] !== focusPosition + 1) !== taken) continue
          const guest = input.guests[i]!
          const row: RulePreviewGuest = {
            id: guest.id,
            name: guest.name,
            vmid: guest.vmid,
            node: guest.node,
            type: guest.type,
            status: guest.status,
            cpu: guest.cpu,
          }
          if (taken && owner[i] !== 0) row.takenBy = order[owner[i]! - 1]!.rule.id
          guests.push(row)
        }
      }
    }
    return {
      kind: 'rulePreview',
      ready: input.ready,
      total: n,
      counts: request.rules.map((rule) => counts.get(rule.id)!),
      guests,
      alerts,
    }
  }
}

/**
 * The guests a rule's filters match, as a mask; null when none can match (no filter text). A
 * filter matching every guest (no terms) counts as all ones, as compileGuestSearch matches all.
 */
function ruleMask(
  rule: PreviewRule,
  n: number,
  evaluate: (text: string) => Uint8Array | null,
): Uint8Array | null {
  const texts = rule.filters.filter((text) => text.trim() !== '')
  if (texts.length === 0) return null
  let result: Uint8Array | null = null
  for (const text of texts) {
    const mask = evaluate(text) ?? new Uint8Array(n).fill(1)
    if (result === null) result = Uint8Array.from(mask)
    else if (rule.logicalOperator === 'OR') for (let i = 0; i < n; i++) result[i]! |= mask[i]!
    else for (let i = 0; i < n; i++) result[i]! &= mask[i]!
  }
  return result
}
