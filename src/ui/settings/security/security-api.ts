// The Security tab's calls (contract auth-api.md and auth-api-2.md; spec 001 §7, §8 texts). Each
// turns the server's answer into what the tab shows, so the components only handle success and
// an Error whose message is the text to show.
import type { AccountLock, AuditEntry } from '../../../shared/model/security.ts'
import { HttpError, apiFetch, apiJson } from '../../api/http.ts'
import { appErrorOf, extractErrorText, parseJson, statusText } from '../../api/errors.ts'
import { textOr } from '../../../shared/model/coerce.ts'

/** The server's own text, or `fallback` when it said nothing useful. */
function textOf(error: unknown, fallback: string): string {
  if (error instanceof HttpError) {
    return error.message && error.message !== statusText(error.status) ? error.message : fallback
  }
  return fallback
}

// ---------------------------------------------------------------------------------------------
// Change password

/**
 * POST /api/security/change-password; CURRENT_PASSWORD_INCORRECT (a 401 without a code from an
 * older server) is 'Current password is incorrect' (spec 001 §8).
 */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  try {
    await apiJson('/api/security/change-password', {
      method: 'POST',
      body: { currentPassword, newPassword },
    })
  } catch (error) {
    // The code, not the status: a 401 AUTH_REQUIRED (session gone) is not a wrong password.
    const code =
      error instanceof HttpError
        ? (error.code ?? (error.status === 401 ? 'CURRENT_PASSWORD_INCORRECT' : null))
        : null
    if (code === 'CURRENT_PASSWORD_INCORRECT') throw new Error('Current password is incorrect')
    throw new Error(textOf(error, 'Failed to change password'))
  }
}

// ---------------------------------------------------------------------------------------------
// API token

/** POST /api/security/regenerate-token → the new token, shown once. */
export async function regenerateToken(): Promise<string> {
  let answer: { token?: unknown } | null
  try {
    answer = await apiJson<{ token?: unknown }>('/api/security/regenerate-token', {
      method: 'POST',
      body: {},
    })
  } catch (error) {
    throw new Error(textOf(error, error instanceof Error ? error.message : String(error)))
  }
  if (typeof answer?.token !== 'string' || !answer.token) {
    throw new Error('The server did not return a token')
  }
  return answer.token
}

// ---------------------------------------------------------------------------------------------
// Audit log

/** One audit log entry, as the server sends it. */
export type AuditEvent = AuditEntry

/** Spec: the tab lists the 50 newest events. */
export const AUDIT_LIMIT = 50

const str = (value: unknown): string => textOr(value)

/** GET /api/security/audit?limit=50, newest first. */
export async function loadAudit(limit = AUDIT_LIMIT): Promise<AuditEvent[]> {
  const answer = await apiJson<{ events?: unknown }>(`/api/security/audit?limit=${limit}`)
  const raw = Array.isArray(answer?.events) ? (answer.events as unknown[]) : []
  const events = raw
    .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    .map((item, index) => ({
      id: typeof item.id === 'number' ? item.id : index,
      time: str(item.time),
      type: str(item.type),
      username: str(item.username),
      ip: str(item.ip),
      detail: str(item.detail),
    }))
  // The server sends newest first; sorting again (stable) keeps that true for any answer.
  const at = (event: AuditEvent) => {
    const ms = Date.parse(event.time)
    return Number.isNaN(ms) ? 0 : ms
  }
  return events.sort((a, b) => at(b) - at(a))
}

// ---------------------------------------------------------------------------------------------
// Account lockout

/** GET /api/security/lockout: the login account's lock (an empty list before the first setup). */
export async function loadLockout(): Promise<AccountLock[]> {
  const answer = await apiJson<{ accounts?: unknown }>('/api/security/lockout')
  return Array.isArray(answer?.accounts) ? (answer.accounts as AccountLock[]) : []
}

/** POST /api/security/unlock {username}; rejects with the server's text. */
export async function unlockAccount(username: string): Promise<void> {
  try {
    await apiJson('/api/security/unlock', { method: 'POST', body: { username } })
  } catch (error) {
    throw new Error(textOf(error, 'Failed to unlock the account'))
  }
}

// ---------------------------------------------------------------------------------------------
// Config export / import

/** Spec 001 §9: a custom export passphrase has at least 12 characters. */
export const MIN_PASSPHRASE_LENGTH = 12

export type PassphraseMode = 'password' | 'custom'

/**
 * Why Export cannot run yet (spec 001 §5), or '' when it can: with login configured the default
 * passphrase is the login password; a custom one needs at least 12 characters.
 */
export function exportProblem(hasLogin: boolean, mode: PassphraseMode, passphrase: string): string {
  const loginPassword = hasLogin && mode === 'password'
  if (!passphrase) return loginPassword ? 'Please enter your password' : 'Please enter a passphrase'
  if (!loginPassword && passphrase.length < MIN_PASSPHRASE_LENGTH) {
    return `The passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters (${passphrase.length} so far)`
  }
  return ''
}

/** The file name of a Content-Disposition header (filename* first), or null. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null
  let name: string | null = null
  const star = /filename\*\s*=\s*([^;]+)/i.exec(header)
  if (star) {
    const value = star[1]!.trim().replace(/^"(.*)"$/, '$1')
    const encoded = value.replace(/^[\w-]+'[^']*'/, '')
    try {
      name = decodeURIComponent(encoded)
    } catch {
      name = encoded
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header)
    if (plain) name = (plain[2] ?? plain[1]!).replace(/\\(.)/g, '$1').trim()
  }
  // A name only: no folders, no control characters.
  const safe = name
    ?.split(/[/\\]/)
    .pop()
    ?.replace(/\p{Cc}/gu, '')
    .trim()
  return safe ? safe : null
}

/** The export's default file name: pulse-config-YYYY-MM-DD.json (local date). */
export function defaultExportName(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `pulse-config-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.json`
}

// ---------------------------------------------------------------------------------------------
// API-token-only instances (spec 001 §6): export and import need the token, asked for once and
// kept for this tab's session (sessionStorage: it goes when the tab closes, not to other tabs).

export const API_TOKEN_STORAGE_KEY = 'pulse.apiToken'
export const INVALID_TOKEN_TEXT = 'Invalid or expired API token. Please re-enter.'
/** The text the server answers when a call needs the token (the §8 "marker"). */
const TOKEN_MARKER = /api token required/i

/** The caller must supply an API token; `message` is shown in the token modal (may be empty). */
export class ApiTokenNeeded extends Error {}

export function storedApiToken(): string | null {
  try {
    return sessionStorage.getItem(API_TOKEN_STORAGE_KEY) || null
  } catch {
    return null
  }
}

export function storeApiToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(API_TOKEN_STORAGE_KEY, token)
    else sessionStorage.removeItem(API_TOKEN_STORAGE_KEY)
  } catch {
    // Storage off (private mode): the token is asked for again next time.
  }
}

/** Spec 001 §5: the token modal's check. */
export function apiTokenProblem(token: string): string {
  return token.trim() ? '' : 'Please enter the API token'
}

function tokenHeaders(): Record<string, string> {
  const token = storedApiToken()
  return token ? { 'X-API-Token': token } : {}
}

/** The code of an answer without one (an older server): read off the spec's token texts. */
function legacyTokenCode(body: string): 'API_TOKEN_INVALID' | 'API_TOKEN_REQUIRED' | null {
  if (/invalid api token/i.test(body)) return 'API_TOKEN_INVALID'
  return TOKEN_MARKER.test(body) ? 'API_TOKEN_REQUIRED' : null
}

/**
 * A 401/403 of export or import: the token modal when the server wants the token (or refused
 * the stored one, which is then forgotten), else `text`. Branches on the answer's code.
 */
function refusal(body: string, text: string): Error {
  const code = appErrorOf(parseJson(body))?.code ?? legacyTokenCode(body)
  if (code === 'API_TOKEN_INVALID' && storedApiToken()) {
    storeApiToken(null)
    return new ApiTokenNeeded(INVALID_TOKEN_TEXT)
  }
  if (code === 'API_TOKEN_REQUIRED' || code === 'API_TOKEN_INVALID') return new ApiTokenNeeded('')
  return new Error(text)
}

/** POST /api/config/export {passphrase} → the file's name (from Content-Disposition) and text. */
export async function exportConfig(
  passphrase: string,
): Promise<{ filename: string; text: string }> {
  let res: Response
  try {
    res = await apiFetch('/api/config/export', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...tokenHeaders() },
      body: JSON.stringify({ passphrase }),
      // 5 per 5 minutes: say so at once instead of holding the dialog for the wait.
      retryRateLimit: false,
    })
  } catch {
    throw new Error('Failed to export configuration')
  }
  const text = await res.text()
  if (!res.ok) {
    if (res.status === 401 || res.status === 403) {
      throw refusal(text, 'Export requires authentication')
    }
    const message = extractErrorText(res.status, text)
    throw new Error(message === statusText(res.status) ? 'Export failed' : message)
  }
  if (!text.trim()) throw new Error('Export failed')
  const filename = filenameFromDisposition(res.headers.get('Content-Disposition'))
  return { filename: filename ?? defaultExportName(), text }
}

/** POST /api/config/import {passphrase, data}; resolves when the server has applied it. */
export async function importConfig(passphrase: string, data: unknown): Promise<void> {
  try {
    await apiJson('/api/config/import', {
      method: 'POST',
      body: { passphrase, data },
      headers: tokenHeaders(),
      retryRateLimit: false,
    })
  } catch (error) {
    if (error instanceof HttpError && (error.status === 401 || error.status === 403)) {
      throw refusal(JSON.stringify(error.body ?? error.message), 'Import requires authentication')
    }
    throw new Error(textOf(error, 'Failed to import configuration'))
  }
}
