// The theme the user chose (spec 001 §2 Shell): stored on the server so another browser of the
// same estate follows it, and announced over the socket as `settingsUpdate` (data.theme). Kept out
// of the System tab's settings route on purpose: the toggle in the header saves only this key.
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

/** Register GET /api/system/theme and POST /api/system/theme `{theme}`. */
export function registerThemeRoutes(app: FastifyInstance, deps: ThemeRouteDeps): void {
  app.get('/api/system/theme', async () => ({ theme: readStoredTheme(deps.settings) }))
  app.post('/api/system/theme', async (request) => {
    const { theme } = parseBody(themeSchema, request.body)
    deps.settings.set(THEME_KEY, theme, deps.now())
    deps.broadcast('settingsUpdate', { theme })
    return { theme }
  })
}
