// Has the server been upgraded since this page loaded? The built index.html names its script by
// a content hash (Vite), so a new build serves another name: the wall view compares the one the
// page runs with the one the server serves now, and reloads itself when they differ. Needs no
// server support and sees every rebuild, not only a version bump.
import { apiFetch } from '../api/http.ts'

/** The `src` of the first module script of an HTML document's text, null when none. */
export function moduleScriptOf(html: string): string | null {
  for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
    if (!/\btype\s*=\s*["']?module["']?/i.test(tag)) continue
    const src = /\bsrc\s*=\s*["']([^"']+)["']/i.exec(tag)
    if (src) return src[1]!
  }
  return null
}

/** The module script this page was loaded with (null under a dev server or a test runner). */
export function loadedModuleScript(doc: Document = document): string | null {
  return doc.querySelector('script[type="module"][src]')?.getAttribute('src') ?? null
}

/**
 * True when the server now serves a build other than `loaded`; false when it serves the same
 * one, when it cannot tell (no script name on either side) and when the server does not answer:
 * a wall must not reload itself onto an error page.
 */
export async function servesNewBuild(
  loaded: string | null = loadedModuleScript(),
): Promise<boolean> {
  if (!loaded) return false
  try {
    const res = await apiFetch('/', { cache: 'no-store', headers: { Accept: 'text/html' } })
    if (!res.ok) return false
    const served = moduleScriptOf(await res.text())
    return served !== null && served !== loaded
  } catch {
    return false
  }
}

/**
 * True when the server answers that this browser's session is gone (authentication required,
 * not signed in): the socket's upgrade is then refused for good, and only a sign-in brings data
 * back. False when signed in, when auth is off and when the server does not answer.
 */
export async function sessionLost(): Promise<boolean> {
  try {
    const res = await apiFetch('/api/security/status')
    if (!res.ok) return false
    const status = (await res.json()) as {
      disabled?: unknown
      requiresAuth?: unknown
      authenticated?: unknown
    }
    return (
      status.disabled !== true && status.requiresAuth === true && status.authenticated === false
    )
  } catch {
    return false
  }
}
