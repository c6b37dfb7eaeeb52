// Tokenizer of the main guest search reading (spec 000 §5). Runs once per search text, never per
// row, so regexes and string building are fine here. Imports nothing.

/** One search word; `quoteAt` is where quoted text starts inside `text` (-1: none, 0: a phrase). */
export interface SearchToken {
  kind: 'term'
  text: string
  quoteAt: number
}

/** A connector word between terms. */
export interface SearchConnector {
  kind: 'and' | 'or'
}

/** What the main reading splits a search text into. */
export type SearchItem = SearchToken | SearchConnector

const CONNECTORS: Readonly<Record<string, SearchConnector['kind']>> = {
  and: 'and',
  '&&': 'and',
  or: 'or',
  '||': 'or',
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
// A field name followed only by an operator: the value is in the next word (`cpu> 80`).
const FIELD_AND_OPERATOR = /^[A-Za-z_][A-Za-z0-9_]*(?:[<>]=?|==?|:)$/
// A word that is only an operator or starts with one (`>`, `>=80`, `:web`).
const LEADING_OPERATOR = /^(?:[<>]=?|==?|:)/
const SPACE = /\s/

/** Split a search text into terms and AND / OR connectors, joining `field op value` across spaces. */
export function readSearchItems(input: string): SearchItem[] {
  const items: SearchItem[] = []
  for (const token of splitWords(input)) {
    const connector = token.quoteAt < 0 ? CONNECTORS[token.text.toLowerCase()] : undefined
    if (connector) {
      items.push({ kind: connector })
      continue
    }
    const previous = items[items.length - 1]
    if (previous?.kind === 'term' && shouldJoin(previous, token)) {
      previous.quoteAt = token.quoteAt < 0 ? previous.quoteAt : previous.text.length + token.quoteAt
      previous.text += token.text
      continue
    }
    items.push(token)
  }
  return items
}

// `cpu` + `>80`, `cpu>` + `80`, `name:` + `"web prod"`: an administrator spaces operators freely.
function shouldJoin(previous: SearchToken, next: SearchToken): boolean {
  if (previous.quoteAt >= 0) return false
  if (IDENTIFIER.test(previous.text)) return next.quoteAt !== 0 && LEADING_OPERATOR.test(next.text)
  return FIELD_AND_OPERATOR.test(previous.text)
}

// Whitespace separates words except inside double quotes; an unclosed quote runs to the end.
function splitWords(input: string): SearchToken[] {
  const words: SearchToken[] = []
  const end = input.length
  let i = 0
  while (i < end) {
    while (i < end && SPACE.test(input[i]!)) i++
    if (i >= end) break
    let text = ''
    let quoteAt = -1
    while (i < end && !SPACE.test(input[i]!)) {
      if (input[i] === '"') {
        if (quoteAt < 0) quoteAt = text.length
        const close = input.indexOf('"', i + 1)
        const stop = close < 0 ? end : close
        text += input.slice(i + 1, stop)
        i = stop + 1
      } else {
        text += input[i]
        i++
      }
    }
    // `""` is an empty phrase: nothing to search for.
    if (text.trim()) words.push({ kind: 'term', text, quoteAt })
  }
  return words
}
