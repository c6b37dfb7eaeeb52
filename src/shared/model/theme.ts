// The UI theme as stored on the server and sent in `settingsUpdate` (spec 001 §2 Shell).

/** The themes a user can pick. */
export const THEMES = ['light', 'dark'] as const
export type Theme = (typeof THEMES)[number]

/** True for a value that names a theme. */
export function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark'
}
