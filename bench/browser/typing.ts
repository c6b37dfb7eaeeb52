// Typing a guest search one key at a time while live cycles arrive, and what each key cost: from
// its keydown to the first paint of a change of the guest table, its footer or the empty state
// (the page's observers are installLiveObservers of live-metrics.ts). Shared by the live bench
// and the hour (hour.spec.ts).
import { expect, type Locator, type Page } from '@playwright/test'
import type { LiveWindow } from './live-metrics.ts'

/**
 * The next key goes once the page has painted the answer and been quiet for `quietMs`, or after
 * `noChangeMs` without a paint (the key changed nothing visible, or took longer).
 */
export interface TypingPace {
  quietMs: number
  noChangeMs: number
}

export const TYPING_PACE: TypingPace = { quietMs: 250, noChangeMs: 1000 }

/** Types `text` into the search box key by key; resolves with page ms of the search's start. */
async function typeKeys(page: Page, search: Locator, text: string, pace: TypingPace) {
  await search.click()
  for (const char of text) {
    await page.keyboard.type(char)
    await page.evaluate(
      async ({ quiet, none }) => {
        const l = (window as unknown as LiveWindow).__live
        const key = l.keys[l.keys.length - 1] ?? 0
        for (;;) {
          await new Promise((resolve) => setTimeout(resolve, 50))
          const last = l.paints[l.paints.length - 1] ?? 0
          const now = performance.now()
          if (last > key ? now - last >= quiet : now - key >= none) return
        }
      },
      { quiet: pace.quietMs, none: pace.noChangeMs },
    )
  }
  await expect(search).toHaveValue(text)
}

/** From the last key to the paint that settled the answer (two frames after it). */
async function lastKeyToPaint(page: Page): Promise<number> {
  const { lastKey, lastPaint } = await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    const l = (window as unknown as LiveWindow).__live
    return {
      lastKey: l.keys[l.keys.length - 1] ?? 0,
      lastPaint: l.paints[l.paints.length - 1] ?? 0,
    }
  })
  return Math.max(0, lastPaint - lastKey)
}

/**
 * Key-to-paint latencies of the keys typed since `from` (page ms): the first paint after a key
 * and before the next key, the next clear (`clears`) or `noChangeMs`, whichever is first.
 */
export async function keyLatencies(
  page: Page,
  from: number,
  clears: readonly number[],
  pace: TypingPace = TYPING_PACE,
): Promise<{ keys: number; latencies: number[] }> {
  const { keys, paints } = await page.evaluate(() => ({
    keys: (window as unknown as LiveWindow).__live.keys,
    paints: (window as unknown as LiveWindow).__live.paints,
  }))
  const typed = keys.filter((k) => k >= from)
  const latencies = typed.flatMap((k, i) => {
    const end = Math.min(
      typed[i + 1] ?? Infinity,
      clears.find((c) => c > k) ?? Infinity,
      k + pace.noChangeMs,
    )
    const paint = paints.find((p) => p > k)
    return paint !== undefined && paint <= end ? [paint - k] : []
  })
  return { keys: typed.length, latencies }
}

/**
 * Types `text` into the guests' search, waits for the search to be applied (rows shown or the
 * empty state), then clears it. Resolves with the last key's latency and the page ms of the clear.
 */
export async function typeSearchAndClear(
  page: Page,
  text: string,
  pace: TypingPace = TYPING_PACE,
): Promise<{ lastKeyMs: number; clearedAt: number }> {
  const search = page.getByRole('searchbox', { name: 'Search guests' })
  const footer = page.locator('p[aria-live="polite"]').filter({ hasText: 'running' })
  await typeKeys(page, search, text, pace)
  const applied = page
    .getByText(`No guests match your search "${text}"`)
    .or(footer.filter({ hasText: 'shown' }))
  await expect(applied).toBeVisible({ timeout: 60_000 })
  const lastKeyMs = await lastKeyToPaint(page)
  const clearedAt = await page.evaluate(() => performance.now())
  await page.getByRole('button', { name: 'Clear search' }).click()
  await expect(footer).toBeVisible({ timeout: 60_000 })
  await expect(footer).not.toContainText('shown', { timeout: 60_000 })
  return { lastKeyMs, clearedAt }
}
