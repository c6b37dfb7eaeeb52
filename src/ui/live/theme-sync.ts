// The theme across browsers (spec 001 §2 Shell): the toggle saves locally and on the server; a
// settingsUpdate from the socket (another browser saved) is applied and saved locally only.
import { apiJson, HttpError } from '../api/http.ts'
import { setDark } from '../state.ts'
import { isTheme, type Theme } from '../../shared/model/theme.ts'

/** The toggle: applies and stores the theme here, then on the server (a failure only logged). */
export async function chooseTheme(dark: boolean): Promise<void> {
  setDark(dark)
  const theme: Theme = dark ? 'dark' : 'light'
  try {
    await apiJson('/api/system/theme', { method: 'POST', body: { theme } })
  } catch (error) {
    // The page keeps the choice; other browsers just do not follow this time.
    console.warn('Saving the theme on the server failed', error)
  }
}

/** A theme announced by the server (settingsUpdate), or read from it at start. */
export function followTheme(theme: unknown): void {
  if (isTheme(theme)) setDark(theme === 'dark')
}

/**
 * At start, the server's theme when one is stored: a browser that was closed while another
 * changed the theme catches up. Failure (older server, signed out) keeps the local choice.
 */
export async function loadServerTheme(): Promise<void> {
  try {
    const answer = await apiJson<{ theme?: unknown }>('/api/system/theme', {
      retryRateLimit: false,
    })
    followTheme(answer?.theme)
  } catch (error) {
    // A server without the route (the reference) is no failure: the local choice stands.
    if (error instanceof HttpError && error.status === 404) return
    console.warn('Reading the theme from the server failed', error)
  }
}
