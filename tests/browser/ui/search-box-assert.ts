// Checks that a search box shows exactly one clear button: ours, never the browser's own
// (issue 24 item 29). Chromium's getComputedStyle ignores ::-webkit-search-cancel-button, so the
// page's style sheets are read instead: a rule for that pseudo-element that matches the input
// and hides it.
import { expect } from 'vitest'

const CANCEL = '::-webkit-search-cancel-button'

function styleRules(list: CSSRuleList): CSSStyleRule[] {
  const out: CSSStyleRule[] = []
  for (const rule of Array.from(list)) {
    if (rule instanceof CSSStyleRule) out.push(rule)
    if ('cssRules' in rule && rule.cssRules instanceof CSSRuleList) {
      out.push(...styleRules(rule.cssRules))
    }
  }
  return out
}

/** True when a loaded style sheet hides the browser's cancel button on `input`. */
export function nativeCancelHidden(input: HTMLInputElement): boolean {
  for (const sheet of Array.from(document.styleSheets)) {
    for (const rule of styleRules(sheet.cssRules)) {
      const hides = rule.style.display === 'none' || rule.style.appearance === 'none'
      if (!hides) continue
      for (const part of rule.selectorText.split(',')) {
        if (!part.includes(CANCEL)) continue
        const base = part.replace(CANCEL, '').trim() || '*'
        if (input.matches(base)) return true
      }
    }
  }
  return false
}

/** The search box has text, one "Clear search" button beside it and no native one. */
export function expectOneClearButton(input: HTMLInputElement): void {
  expect(input.value).not.toBe('')
  const box = input.closest('[data-search-field]')
  expect(box, 'the search box is a SearchField').not.toBeNull()
  expect(box!.querySelectorAll('button[aria-label="Clear search"]')).toHaveLength(1)
  if (input.type === 'search') expect(nativeCancelHidden(input)).toBe(true)
}
