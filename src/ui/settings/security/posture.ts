// Security posture (spec 001 §2 Security tab, §4 Security banner, §9): the seven tiles, the score
// out of 5 and its colour. Pure, so the banner and the tab agree.
import { hasPasswordLogin, type SecurityStatusInfo } from '../../auth/security-status.ts'

/** Spec 001 §9: the score is out of 5. */
export const MAX_SCORE = 5

/** Spec 001 §9: the banner shows below this score. */
export const BANNER_SCORE = 4

/** A sign-in method is configured: password login (not disabled), single sign-on or proxy auth. */
export function hasSignIn(status: Readonly<SecurityStatusInfo>): boolean {
  const password = hasPasswordLogin(status)
  return password || status.oidcEnabled === true || status.hasProxyAuth === true
}

/**
 * One point each for: a sign-in method (password, single sign-on or proxy auth), an API token,
 * protected export, HTTPS, audit logging.
 */
export function securityScore(status: Readonly<SecurityStatusInfo>): number {
  return [
    hasSignIn(status),
    status.apiTokenConfigured === true,
    status.exportProtected === true,
    status.hasHTTPS === true,
    status.hasAuditLogging === true,
  ].filter(Boolean).length
}

/** Colour band of a score: at least 80, 60, 40 percent, or below. */
export type ScoreLevel = 'good' | 'fair' | 'weak' | 'poor'

export function scoreLevel(score: number, max = MAX_SCORE): ScoreLevel {
  const percent = max > 0 ? (score / max) * 100 : 0
  if (percent >= 80) return 'good'
  if (percent >= 60) return 'fair'
  if (percent >= 40) return 'weak'
  return 'poor'
}

/** Text and bar colours per band (green, yellow, orange, red), both themes. */
export const SCORE_LOOK: Record<ScoreLevel, { text: string; bar: string; label: string }> = {
  good: {
    text: 'text-emerald-700 dark:text-emerald-400',
    bar: 'bg-emerald-500',
    label: 'Good',
  },
  fair: { text: 'text-yellow-700 dark:text-yellow-400', bar: 'bg-yellow-500', label: 'Fair' },
  weak: { text: 'text-orange-700 dark:text-orange-400', bar: 'bg-orange-500', label: 'Weak' },
  poor: { text: 'text-red-700 dark:text-red-400', bar: 'bg-red-500', label: 'Poor' },
}

export interface PostureTile {
  label: string
  /** Configured / on. */
  on: boolean
  detail: string
}

/** The seven tiles in the spec's order. */
export function postureTiles(status: Readonly<SecurityStatusInfo>): PostureTile[] {
  const password = hasPasswordLogin(status)
  return [
    {
      label: 'Password login',
      on: password,
      detail: status.disabled
        ? 'Disabled by DISABLE_AUTH'
        : password
          ? 'Enabled'
          : 'Not configured',
    },
    {
      label: 'Single sign-on',
      on: status.oidcEnabled === true,
      detail: status.oidcEnabled ? 'Enabled' : 'Off',
    },
    {
      label: 'Proxy auth',
      on: status.hasProxyAuth === true,
      detail: status.hasProxyAuth ? 'Configured' : 'Off',
    },
    {
      label: 'API token',
      on: status.apiTokenConfigured === true,
      detail: status.apiTokenConfigured ? 'Configured' : 'Not configured',
    },
    {
      label: 'Export protection',
      on: status.exportProtected === true,
      detail: status.exportProtected
        ? 'Passphrase required'
        : status.unprotectedExportAllowed
          ? 'Unprotected export allowed'
          : 'Not protected',
    },
    {
      label: 'HTTPS',
      on: status.hasHTTPS === true,
      detail: status.hasHTTPS ? 'Enabled' : 'Plain HTTP',
    },
    {
      label: 'Audit log',
      on: status.hasAuditLogging === true,
      detail: status.hasAuditLogging ? 'Recording' : 'Off',
    },
  ]
}

/** Why the warning banner shows, or null when it does not (dismissal aside). */
export function securityWarning(status: Readonly<SecurityStatusInfo> | null): string | null {
  // Disabled on purpose: the auth-disabled (or demo) banner already says so, once.
  if (!status || status.disabled) return null
  if (status.publicAccess && !status.hasAuthentication) {
    return 'Pulse is reachable from a public network without authentication.'
  }
  const score = securityScore(status)
  if (score < BANNER_SCORE) return `Your security score is ${score} of ${MAX_SCORE}.`
  return null
}

/** Spec 001 §4 API token: first 8 characters, '...', last 4, when the token has at least 20. */
export function tokenHint(token: string): string {
  return token.length >= 20 ? `${token.slice(0, 8)}...${token.slice(-4)}` : ''
}
