// Maps transport failures and HTTP statuses to AppErrors (reference/proxmox-api.md §1.5).
// Params carry the host and Proxmox's own reason text only: never headers, bodies or secrets.
import { AppError } from '../../shared/model/errors.ts'
import { TlsFingerprintMismatch } from './tls-agent.ts'

// AnyEvent::HTTP pseudo-statuses: the node we asked could not proxy to another node. They mean
// "that node is unreachable", not an authentication problem.
const PROXY_FAILURES = new Set([595, 596, 597, 599])

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
])

const UNTRUSTED_CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

// Anything shaped like a credential in upstream text. A hostile or misconfigured endpoint (or a
// proxy in front of it) may echo our request: the auth header, the ticket cookie, the login form.
const CREDENTIAL_SHAPES: ReadonlyArray<[RegExp, string]> = [
  [/\b(authorization)\s*[:=][^\r\n]*/gi, '$1: [redacted]'],
  [
    /\b(PVEAPIToken|PBSAPIToken|PVEAuthCookie|PBSAuthCookie)\b\s*[=:]?\s*[^\s,;"'&]+/gi,
    '$1=[redacted]',
  ],
  [
    /\b(CSRFPreventionToken|password|passwd|secret|tokenValue|ticket)(\\?"?\s*[=:]\s*\\?"?)[^\s,;"'&\\]+/gi,
    '$1$2[redacted]',
  ],
]

/**
 * Removes credentials from upstream text: every known secret (as sent: plain, form- or
 * URL-encoded) and anything shaped like an auth header, cookie or password field.
 */
export function redactCredentials(text: string, secrets: readonly string[] = []): string {
  let out = text
  for (const secret of secrets) {
    // Very short values would blank out ordinary words; a real token or password is longer.
    if (secret.length < 4) continue
    const forms = new Set([
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
      JSON.stringify(secret).slice(1, -1),
    ])
    for (const form of forms) out = out.split(form).join('[redacted]')
  }
  for (const [shape, replacement] of CREDENTIAL_SHAPES) out = out.replace(shape, replacement)
  return out
}

/**
 * Keeps a Proxmox reason phrase short, printable and free of credential-shaped text. Upstream
 * text reaches answers and logs only through here.
 */
export function cleanReason(reason: string | undefined, fallback: string): string {
  // Controls, format characters (bidi) and lone surrogates become spaces.
  const printable = (reason ?? '').replace(/[\p{C}\p{Zl}\p{Zp}]+/gu, ' ')
  const text = redactCredentials(printable).replace(/ {2,}/g, ' ').trim()
  return (text || fallback).slice(0, 200)
}

/** The AppError for a non-2xx HTTP answer. */
export function toHttpError(
  host: string,
  status: number,
  statusText: string | undefined,
): AppError {
  if (status === 401) return new AppError('PVE_AUTH_REJECTED', { host })
  const reason = cleanReason(statusText, `HTTP ${status}`)
  if (status === 403) return new AppError('PVE_FORBIDDEN', { host, reason })
  if (PROXY_FAILURES.has(status)) return new AppError('PVE_UNREACHABLE', { host, reason })
  return new AppError('PVE_HTTP', { host, status, reason })
}

/** The AppError for a thrown transport error (network, TLS, timeout). */
export function toTransportError(host: string, err: unknown, timeoutMs: number): AppError {
  if (err instanceof AppError) return err
  for (let cur: unknown = err, depth = 0; cur && depth < 6; depth++) {
    if (cur instanceof AppError) return cur
    if (cur instanceof TlsFingerprintMismatch) {
      return new AppError('PVE_TLS_MISMATCH', { host, actual: cur.actual }, { cause: err })
    }
    const code = readCode(cur)
    if (code && UNTRUSTED_CERT_CODES.has(code)) {
      return new AppError('PVE_TLS_UNTRUSTED', { host, reason: code }, { cause: err })
    }
    if (code && TIMEOUT_CODES.has(code)) {
      return new AppError('PVE_TIMEOUT', { host, ms: timeoutMs }, { cause: err })
    }
    if (code) return new AppError('PVE_UNREACHABLE', { host, reason: code }, { cause: err })
    cur = (cur as { cause?: unknown }).cause
  }
  const message = err instanceof Error ? err.message : String(err)
  return new AppError(
    'PVE_UNREACHABLE',
    { host, reason: cleanReason(message, 'network error') },
    { cause: err },
  )
}

function readCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined
  const code = (err as { code?: unknown }).code
  return typeof code === 'string' && code !== 'UND_ERR_SOCKET' ? code : undefined
}
