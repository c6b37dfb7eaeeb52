// The theme the user chose (spec 001 §2 Shell): stored on the server so another browser of the
// same estate follows it, and announced over the socket as `settingsUpdate` (data.theme). The
// header's toggle saves through this route; the system settings route accepts `theme` too (spec
// 001 §7) and saves it through saveTheme.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { isTheme, THEMES, type Theme } from '../../shared/model/theme.ts'
import { parseBody } from '../parse-body.ts'
import type { SystemSettingsRepo } from '../store/system-settings-repo.ts'

const THEME_KEY = 'theme'

const themeSchema = z.object({
  theme: z.enum(THEMES, { error: 'must be "light" or "dark"' }),
})

export interface ThemeRouteDeps {
  settings: SystemSettingsRepo
  now: () => number
  broadcast: (type: string, data: unknown) => void
}

/** The stored theme, '' when none was saved (the browser then keeps its own choice). */
export function readStoredTheme(settings: SystemSettingsRepo): Theme | '' {
  const value = settings.get(THEME_KEY)
  return isTheme(value) ? value : ''
}

/** Store the theme and announce it to every socket, as both routes do. */
export function saveTheme(deps: ThemeRouteDeps, theme: Theme): void {
  deps.settings.set(THEME_KEY, theme, deps.now())
  deps.broadcast('settingsUpdate', { theme })
}

/** Register GET /api/system/theme and POST /api/system/theme `{theme}`. */
export function registerThemeRoutes(app: FastifyInstance, deps: ThemeRouteDeps): void {
  app.get('/api/system/theme', async () => ({ theme: readStoredTheme(deps.settings) }))
  app.post('/api/system/theme', async (request) => {
    const { theme } = parseBody(themeSchema, request.body)
    saveTheme(deps, theme)
    return { theme }
  })
}
