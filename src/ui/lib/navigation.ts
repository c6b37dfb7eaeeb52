// Page-level navigation the UI triggers itself (reloads after a password change or an import).
// Behind an object so tests can replace the methods instead of reloading the test page.

export const pageNavigation = {
  reload(): void {
    window.location.reload()
  },
}

/** Spec 001 §9: reload delay after an import or a password change. */
export const RELOAD_DELAY_MS = 2_000

/** Reloads the page after `ms`; the timer outlives the component that asked for it. */
export function reloadSoon(ms = RELOAD_DELAY_MS): void {
  setTimeout(() => pageNavigation.reload(), ms)
}
