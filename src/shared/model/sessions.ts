// Session list (issue 29 item 5): what GET /api/security/sessions (the caller's own) and
// GET /api/security/sessions/all (an admin: everyone's) answer. Never a session's id or digest:
// `id` is a public reference that only names the session for DELETE /api/security/sessions/{id}.

/** At most this many sessions in one answer (most recently seen first). */
export const SESSIONS_LIST_MAX = 500
/** Last seen is written at most this often per session. */
export const SESSION_SEEN_RESOLUTION_MS = 60_000

export interface SessionView {
  id: string
  username: string
  /** 'password': the login form or first-run setup; 'oidc': single sign-on. */
  method: 'password' | 'oidc'
  /** ISO 8601. */
  createdAt: string
  /** ISO 8601, to the minute: the last request, or the last live connection opened. */
  lastSeenAt: string
  /** ISO 8601: when it ends unless used again. */
  expiresAt: string
  /** The address of the last request ('' when not known, a session from before the list). */
  address: string
  /** The browser and system, as "Firefox on Linux"; '' when not known. */
  device: string
  /** The whole User-Agent (for a tooltip), at most 300 characters. */
  userAgent: string
  /** The session this answer was asked with. */
  current: boolean
  /** Live connections it holds on this server now (a web node's are not counted). */
  liveConnections: number
}

export interface SessionsAnswer {
  sessions: SessionView[]
  /** True when there were more than SESSIONS_LIST_MAX. */
  truncated: boolean
}

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\b(?:Headless)?Chrom(?:e|ium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/^curl\//, 'curl'],
  [/^Wget\//, 'Wget'],
  [/^python-requests\/|^Python-urllib\//, 'Python'],
  [/^node|^undici/i, 'Node.js'],
]

const SYSTEMS: readonly [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
]

/** "Firefox on Linux" from a User-Agent; the first 40 characters when nothing is recognised. */
export function describeDevice(userAgent: string): string {
  const ua = userAgent.trim()
  if (ua === '') return ''
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1]
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1]
  if (browser && system) return `${browser} on ${system}`
  if (browser) return browser
  if (system) return `Browser on ${system}`
  return ua.length > 40 ? `${ua.slice(0, 39)}…` : ua
}
