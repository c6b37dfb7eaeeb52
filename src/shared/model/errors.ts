// Error catalogue. Branch on `code`, never on message text.

export const ERRORS = {
  FIELD_INVALID: { status: 400, message: '{field}: {problem}.' },
  BODY_INVALID: { status: 400, message: 'Request body must be a JSON object.' },
  NODE_NAME_TAKEN: { status: 409, message: 'A node with the name {name} already exists.' },
  NODE_NOT_FOUND: { status: 404, message: 'Node {id} not found.' },
  NOT_FOUND: { status: 404, message: 'Not found: {path}.' },
  USER_NOT_FOUND: { status: 404, message: 'User {username} not found.' },
  PVE_UNREACHABLE: { status: 502, message: 'Cannot reach {host}: {reason}.' },
  PVE_AUTH_REJECTED: { status: 502, message: 'Proxmox rejected the credentials for {host}.' },
  PVE_FORBIDDEN: { status: 502, message: 'Permission denied on {host}: {reason}.' },
  PVE_TLS_MISMATCH: {
    status: 502,
    message: 'TLS fingerprint of {host} does not match the pinned one (got {actual}).',
  },
  PVE_TLS_UNTRUSTED: {
    status: 502,
    message: 'TLS certificate of {host} is not trusted ({reason}); pin its fingerprint.',
  },
  PVE_TIMEOUT: { status: 504, message: 'Request to {host} timed out after {ms} ms.' },
  PVE_HTTP: { status: 502, message: '{host} answered {status} {reason}.' },
  PVE_BAD_RESPONSE: { status: 502, message: '{host} sent an unexpected response: {reason}.' },
  AUTH_REQUIRED: { status: 401, message: 'Authentication required' },
  SETUP_CODE_INVALID: { status: 401, message: 'Invalid or expired setup code' },
  SETUP_URL_MISMATCH: {
    status: 403,
    message: 'This setup URL was issued for {field} {expected}, not {actual}.',
  },
  AUTH_NOT_CONFIGURED: {
    status: 401,
    message: 'Authentication is not configured: complete the first-run setup',
  },
  API_TOKEN_INVALID: { status: 401, message: 'Invalid API token' },
  API_TOKEN_REQUIRED: { status: 401, message: 'API token required' },
  API_TOKEN_FROM_ENV: {
    status: 409,
    message: 'The API token is set by the API_TOKEN environment variable; change it there',
  },
  CSRF_INVALID: { status: 403, message: 'Invalid or missing CSRF token' },
  ORIGIN_REJECTED: { status: 403, message: 'Origin not allowed: {origin}' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid username or password' },
  ACCOUNT_LOCKED: {
    status: 403,
    message: 'Account locked. Please try again in {minutes} minute(s).',
  },
  RATE_LIMITED: { status: 429, message: 'Too many requests. Please wait a moment and try again.' },
  CURRENT_PASSWORD_INCORRECT: { status: 401, message: 'Current password is incorrect' },
  PASSWORD_TOO_SHORT: { status: 400, message: 'Password must be at least {min} characters' },
  ADMIN_REQUIRED: { status: 403, message: 'Admin privileges required' },
  ROLE_REQUIRED: { status: 403, message: 'This needs the {role} role; you are {yours}' },
  ROUTE_ROLE_MISSING: { status: 403, message: 'This route declares no role; refused' },
  PROXY_ROLE_NONE: {
    status: 403,
    message: 'Your proxy sign-in carries no role that Pulse maps; ask your administrator',
  },
  FIELD_READ_ONLY: { status: 400, message: '{field}: set by the environment variable {name}.' },
  IMPORT_WRONG_PASSPHRASE: { status: 400, message: 'Wrong passphrase, or the file was changed.' },
  IMPORT_DAMAGED: {
    status: 400,
    message: 'The file is damaged or not a Pulse configuration export.',
  },
  OIDC_DISABLED: { status: 400, message: 'Single sign-on is not enabled.' },
  OIDC_PROVIDER_UNREACHABLE: {
    status: 502,
    message: 'Cannot reach the identity provider at {issuer}: {reason}.',
  },
  UPDATE_CHECK_FAILED: { status: 502, message: 'Failed to check for updates: {reason}.' },
  UPDATE_REFUSED: { status: 409, message: '{reason}' },
  UPDATE_IN_PROGRESS: {
    status: 409,
    message: 'An update is already being applied; wait for it to finish.',
  },
  COLLECTOR_UNAVAILABLE: {
    status: 503,
    message: 'No active collector answered this web node ({detail}); retry shortly',
  },
  COLLECTOR_STANDBY: {
    status: 503,
    message:
      'This collector is a standby and takes no changes; make them through a web node, which reaches the active collector',
  },
  STORAGE_UNAVAILABLE: { status: 503, message: 'The database {path} cannot be written: {reason}.' },
  HISTORY_RESOURCE_UNKNOWN: {
    status: 404,
    message: 'resourceId: {id} is not a monitored guest, node, storage, PBS or datastore.',
  },
  HISTORY_BUSY: {
    status: 503,
    message:
      'History reads from {endpoint} are at their limit ({inFlight} at once, {perMinute} a minute); retry in a few seconds.',
  },
  HISTORY_UNAVAILABLE: { status: 502, message: 'History of {id} is unavailable: {reason}' },
  INTERNAL: { status: 500, message: 'Internal server error.' },
} as const

export type ErrorCode = keyof typeof ERRORS
export type ErrorParams = Record<string, string | number>

function render(template: string, params: ErrorParams): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  )
}

/** An error that is safe to show: `userMessage` never contains secrets; `cause` is for logs only. */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly params: ErrorParams

  constructor(code: ErrorCode, params: ErrorParams = {}, options?: { cause?: unknown }) {
    const entry = ERRORS[code]
    super(render(entry.message, params), options)
    this.name = 'AppError'
    this.code = code
    this.status = entry.status
    this.params = params
  }

  get userMessage(): string {
    return this.message
  }

  toJSON(): { code: ErrorCode; message: string } {
    return { code: this.code, message: this.message }
  }

  /** Rebuild from `{ code, message }` (Comlink and HTTP boundaries). */
  static fromJSON(json: { code: string; message: string }): AppError {
    const code = (json.code in ERRORS ? json.code : 'INTERNAL') as ErrorCode
    const err = new AppError(code)
    err.message = json.message
    return err
  }
}
