/**
 * The guest search language (spec 000 §5): the main reading (`compileGuestSearch`) and the
 * tab-level reading (`compileTabSearch`). Both compile a search text once into a predicate that
 * runs per guest without allocating (see guest-terms.ts). Neither ever throws.
 *
 * Decisions on cases the spec leaves open:
 *
 * | input | reading |
 * |---|---|
 * | empty or blank text | matches every guest |
 * | `cpu>80`, `cpu > 80`, `cpu >80`, `cpu> 80` | the same metric filter; spaces around an operator are ignored |
 * | `name:web`, `name: web`, `name : web` | the same field filter |
 * | `AND`, `and`, `And`, `&&` / `OR`, `or`, `\|\|` | connectors, only as separate words (`webANDdb` is free text) |
 * | `a b` | `a AND b` (adjacent terms) |
 * | `a OR b AND c` | `(a OR b) AND c`: left to right, no precedence |
 * | `cpu>80 AND`, `OR web`, `a AND OR b` | a leading or trailing connector is dropped; of two in a row the last wins |
 * | `and`, `or` alone (nothing but connectors) | searched as free text, so typing `or…` on the way to `oracle` does not show everything |
 * | `-1`, `.5`, `1e3`, `+2`, `80%` | numbers; a trailing `%` is ignored |
 * | `1k`, `0x10`, `80%%`, `abc` as the value | not a number: the whole term is free text (so it usually matches nothing) |
 * | `cpu>>80`, `cpu=>80`, `cpu<>80`, `cpu!=80` | not a metric filter: free text |
 * | `cpu>`, `cpu >` (operator, no value yet) | unfinished: ignored, so typing does not blank the table |
 * | `=` and `==` | equal within 0.01 inclusive (`cpu=80` matches 79.99 … 80.01) |
 * | `cpu` / `memory` / `disk` / `uptime` | cpu × 100, memory.usage, disk.usage (percent), uptime (0 unless running) |
 * | `disk<10` on a guest whose disk usage is -1 (unavailable) | no match; only a filter that 0 % fails (`disk=-1`, `disk<0`) finds those (`disk>-2` does not) |
 * | any other numeric field (`diskRead>1000`, `vmid>=200`, `cpus=4`) | compared directly; a non-number value never matches |
 * | field names | case-insensitive for every Guest field (`diskread`, `NETWORKIN`); other names are taken as typed |
 * | unknown field (`foo>1`, `foo:bar`) or a field the guest lacks | matches nothing |
 * | `field:text` | case-insensitive substring of the field, numbers as decimal text, booleans as `true`/`false`, arrays (`ipAddresses`) any element |
 * | `vmid:10`, `node:pve` | substring, as the spec says (`vmid:10` matches 100 and 210) |
 * | `cpu:5`, `memory:5` | field text on the raw wire value (cpu is a fraction, memory an object: no match); use metric filters |
 * | `cpu:>80` | field text, not a metric filter |
 * | `tags:prod,db` | any tag contains any of the values |
 * | `tags:`, `tags:,`, `name:` (empty value) | unfinished: ignored |
 * | `"web prod"` | a quoted phrase is one free-text term, spaces included; an unclosed quote runs to the end |
 * | `name:"web prod"` | a quoted field value |
 * | `"cpu>80"`, `"aa:bb:cc"` | quoting turns a filter into free text |
 * | `pve1.example.com:8006`, `http://x` | the part before `:` is not a plain field name: free text |
 * | free text | substring of name, vmid, node, status or any tag |
 * | tab reading: `cpu>80, web` | terms split on commas only, all ANDed; AND / OR and quotes have no meaning |
 * | tab reading: a term with `>`, `<` or `:` | a field filter as above; if it does not parse, a plain term |
 * | tab reading: `cpus=4` (no `>`, `<`, `:`) | a plain term, as the spec says (matches nothing useful) |
 * | tab reading: `tags:a,b` | the comma splits terms: `tags:a` AND plain `b` |
 * | tab reading: plain term | substring of name, vmid, node or status (not tags) |
 */
import {
  compileFreeText,
  compilePlainText,
  parseGuestTerm,
  type GuestPredicate,
  type TermPlan,
} from './guest-terms.ts'
import { readSearchItems } from './search-tokens.ts'

export type { GuestPredicate, TermPlan } from './guest-terms.ts'
export { readMetric } from './guest-terms.ts'

/** The predicate of a search that filters nothing; compare by identity to skip the filter. */
export const matchAllGuests: GuestPredicate = () => true

/** A main-reading search parsed into terms (predicate and column plan) and their connectors. */
export interface ParsedGuestSearch {
  terms: Array<{ test: GuestPredicate; plan: TermPlan }>
  /** `joins[i - 1]`: term i is ORed (true) or ANDed (false) with the result before it. */
  joins: boolean[]
}

/** Parse the main search reading: terms joined by AND / OR, left to right, default AND. */
export function parseGuestSearch(text: string): ParsedGuestSearch {
  const terms: ParsedGuestSearch['terms'] = []
  const joins: boolean[] = []
  let pending: 'and' | 'or' | null = null
  let connectors = 0
  for (const item of readSearchItems(text)) {
    if (item.kind !== 'term') {
      pending = item.kind
      connectors++
      continue
    }
    const term = parseGuestTerm(item.text, item.quoteAt)
    if (term.kind === 'skip') continue
    if (terms.length > 0) joins.push(pending === 'or')
    terms.push(term.kind === 'field' ? term : freeText(item.text))
    pending = null
  }
  if (terms.length === 0 && connectors > 0) return { terms: [freeText(text.trim())], joins }
  return { terms, joins }
}

/** Compile the main search reading: terms joined by AND / OR, left to right, default AND. */
export function compileGuestSearch(text: string): GuestPredicate {
  const { terms, joins } = parseGuestSearch(text)
  return combine(
    terms.map((term) => term.test),
    joins,
  )
}

function freeText(text: string): { test: GuestPredicate; plan: TermPlan } {
  return { test: compileFreeText(text), plan: { kind: 'text', needle: text.toLowerCase() } }
}

/** Compile the tab-level reading: comma-separated terms, all ANDed. */
export function compileTabSearch(text: string): GuestPredicate {
  const terms: GuestPredicate[] = []
  for (const part of text.split(',')) {
    const term = part.trim()
    if (!term) continue
    if (!/[<>:]/.test(term)) {
      terms.push(compilePlainText(term))
      continue
    }
    const parsed = parseGuestTerm(term)
    if (parsed.kind === 'skip') continue
    terms.push(parsed.kind === 'field' ? parsed.test : compilePlainText(term))
  }
  return combine(terms, [])
}

// Specialise on the shape: most searches are one term or all AND, and those loops skip the joins.
function combine(terms: GuestPredicate[], joins: boolean[]): GuestPredicate {
  if (terms.length === 0) return matchAllGuests
  if (terms.length === 1) return terms[0]!
  if (!joins.includes(true)) {
    return (guest) => {
      for (let i = 0; i < terms.length; i++) if (!terms[i]!(guest)) return false
      return true
    }
  }
  const first = terms[0]!
  return (guest) => {
    let result = first(guest)
    for (let i = 1; i < terms.length; i++) {
      // Skipping `true OR x` and `false AND x` is safe: terms are pure and x cannot change them.
      if (joins[i - 1]) result ||= terms[i]!(guest)
      else result &&= terms[i]!(guest)
    }
    return result
  }
}
