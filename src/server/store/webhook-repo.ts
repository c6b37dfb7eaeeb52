// Webhook destinations in SQLite. Secrets never leave this module unsealed except through
// listResolved()/getResolved() (the sender): the URL is always sealed (tokens live in paths and
// queries) with a masked form for display; credential headers (Authorization, *token*, *key*,
// *secret*…) and the custom fields named in secretFields are sealed too. A masked URL, a masked or
// empty credential header and an empty secret field sent back on update keep what is stored, but
// only while the URL keeps its origin: a stored secret is never sent to a host it was not typed for.
import crypto from 'node:crypto'
import type { Webhook, WebhookMethod, WebhookService } from '../../shared/model/notifications.ts'
import type { Db } from './db.ts'
import type { SecretBox } from './secret-box.ts'

/** What replaces a secret in a masked URL. */
export const URL_MASK = '****'
/** What a credential header's value reads as on GET. */
export const HEADER_MASK = '********'

/** A webhook as the routes submit it. */
export type WebhookInput = Omit<Webhook, 'id' | 'urlMasked' | 'hasSecret'>

/** A submitted value that cannot be merged with what is stored (answered 400 naming the field). */
export class WebhookInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`)
  }
}

/** Path segments longer than this are taken for tokens and masked. */
const SEGMENT_SECRET_LENGTH = 16
/** Query keys that identify rather than authenticate (shown as they are). */
const PUBLIC_QUERY_KEYS = new Set(['chat_id'])

/** Whether a header's value is a credential (sealed at rest, masked on GET). */
export function isCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase()
  return /authorization|token|key|secret|password|passwd|cookie|signature|auth/.test(lower)
}

/**
 * The URL with its secret parts masked, and whether anything was: a password in the user info,
 * every query value (but chat_id), path segments longer than 16 characters, and every path segment
 * of ntfy (the topic is the secret).
 */
export function maskUrl(raw: string, service: WebhookService): { url: string; masked: boolean } {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { url: raw, masked: false }
  }
  let masked = false
  const mask = (_secret: string) => {
    masked = true
    return URL_MASK
  }
  const auth = url.username
    ? `${url.username}${url.password ? `:${mask(url.password)}` : ''}@`
    : url.password
      ? `:${mask(url.password)}@`
      : ''
  const path = url.pathname
    .split('/')
    .map((segment) =>
      segment !== '' && (service === 'ntfy' || segment.length > SEGMENT_SECRET_LENGTH)
        ? mask(segment)
        : segment,
    )
    .join('/')
  const pairs: string[] = []
  for (const [key, value] of url.searchParams) {
    const shown =
      value === '' || PUBLIC_QUERY_KEYS.has(key) ? encodeURIComponent(value) : mask(value)
    pairs.push(`${encodeURIComponent(key)}=${shown}`)
  }
  const query = pairs.length > 0 ? `?${pairs.join('&')}` : ''
  if (!masked) return { url: raw, masked: false }
  return { url: `${url.protocol}//${auth}${url.host}${path}${query}${url.hash}`, masked }
}

interface Row {
  id: string
  name: string
  url_enc: string
  url_masked: string
  method: WebhookMethod
  headers_json: string
  secret_headers_json: string
  enabled: number
  service: WebhookService
  template: string
  custom_fields_json: string
  secret_fields_json: string
  created_at: number
  updated_at: number
}

export interface WebhookRepo {
  /** Every webhook with its secrets masked (the GET shape), oldest first. */
  list(): Webhook[]
  get(id: string): Webhook | undefined
  /** Every webhook with its secrets opened: for sending only. */
  listResolved(): Webhook[]
  getResolved(id: string): Webhook | undefined
  /**
   * The submitted webhook with the secrets it left masked or empty taken from webhook `id` (when
   * stored): what the test route sends and update() stores. Throws WebhookInputError.
   */
  resolveInput(input: WebhookInput, id?: string): Webhook
  /** Store a new webhook; answers it masked. */
  create(input: WebhookInput, now: number): Webhook
  /** Replace a webhook, keeping secrets left masked or empty; undefined when there is none. */
  update(id: string, input: WebhookInput, now: number): Webhook | undefined
  remove(id: string): boolean
  /**
   * Replace every webhook by `webhooks` (secrets given opened, ids kept, order kept): a config
   * import, inside the caller's transaction.
   */
  replaceAll(webhooks: readonly Webhook[], now: number): void
}

/** Why a stored secret is not carried to a URL of another origin. */
const MOVED =
  'the URL now points to another origin (scheme, host or port) and the stored value is not sent there; enter it again'

/** scheme://host:port of a URL, or the text itself when it does not parse. */
export const originOf = (url: string): string => {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}

const findKey = (map: Record<string, string>, name: string): string | undefined => {
  const lower = name.toLowerCase()
  return Object.keys(map).find((key) => key.toLowerCase() === lower)
}

/** Repository over the `webhooks` table. */
export function createWebhookRepo(db: Db, box: SecretBox): WebhookRepo {
  const selectAll = db.prepare('SELECT * FROM webhooks ORDER BY created_at, rowid')
  const selectOne = db.prepare('SELECT * FROM webhooks WHERE id = ?')
  const insert = db.prepare(
    `INSERT INTO webhooks (id, name, url_enc, url_masked, method, headers_json, secret_headers_json,
       enabled, service, template, custom_fields_json, secret_fields_json, created_at, updated_at)
     VALUES (@id, @name, @url_enc, @url_masked, @method, @headers_json, @secret_headers_json,
       @enabled, @service, @template, @custom_fields_json, @secret_fields_json, @created_at,
       @updated_at)`,
  )
  const replace = db.prepare(
    `UPDATE webhooks SET name = @name, url_enc = @url_enc, url_masked = @url_masked,
       method = @method, headers_json = @headers_json, secret_headers_json = @secret_headers_json,
       enabled = @enabled, service = @service, template = @template,
       custom_fields_json = @custom_fields_json, secret_fields_json = @secret_fields_json,
       updated_at = @updated_at
     WHERE id = @id`,
  )
  const deleteOne = db.prepare('DELETE FROM webhooks WHERE id = ?')
  const deleteAll = db.prepare('DELETE FROM webhooks')

  const openMap = (json: string) =>
    Object.fromEntries(
      Object.entries(JSON.parse(json) as Record<string, string>).map(([k, v]) => [
        k,
        box.decrypt(v),
      ]),
    )

  /** The row's webhook with secrets opened; header order: plain ones, then credentials. */
  const resolved = (row: Row): Webhook => {
    const secretFields = JSON.parse(row.secret_fields_json) as string[]
    const customFields = JSON.parse(row.custom_fields_json) as Record<string, string>
    for (const name of secretFields) {
      if (customFields[name]) customFields[name] = box.decrypt(customFields[name])
    }
    return {
      id: row.id,
      name: row.name,
      url: box.decrypt(row.url_enc),
      method: row.method,
      headers: { ...(JSON.parse(row.headers_json) as object), ...openMap(row.secret_headers_json) },
      enabled: row.enabled === 1,
      service: row.service,
      template: row.template,
      customFields,
      secretFields,
    }
  }

  /** The row's webhook as GET answers it. */
  const masked = (row: Row): Webhook => {
    const secretFields = JSON.parse(row.secret_fields_json) as string[]
    const customFields = JSON.parse(row.custom_fields_json) as Record<string, string>
    const hasSecret: Record<string, boolean> = {}
    for (const name of secretFields) {
      hasSecret[name] = Boolean(customFields[name])
      if (name in customFields) customFields[name] = ''
    }
    const secretHeaders = JSON.parse(row.secret_headers_json) as Record<string, string>
    const webhook: Webhook = {
      id: row.id,
      name: row.name,
      url: row.url_masked,
      urlMasked: row.url_masked.includes(URL_MASK),
      method: row.method,
      headers: {
        ...(JSON.parse(row.headers_json) as Record<string, string>),
        ...Object.fromEntries(Object.keys(secretHeaders).map((name) => [name, HEADER_MASK])),
      },
      enabled: row.enabled === 1,
      service: row.service,
      template: row.template,
      customFields,
      secretFields,
    }
    if (secretFields.length > 0) webhook.hasSecret = hasSecret
    return webhook
  }

  const toRow = (webhook: Webhook, now: number) => {
    const plain: Record<string, string> = {}
    const sealed: Record<string, string> = {}
    for (const [name, value] of Object.entries(webhook.headers)) {
      if (isCredentialHeader(name)) sealed[name] = box.encrypt(value)
      else plain[name] = value
    }
    const customFields = { ...webhook.customFields }
    for (const name of webhook.secretFields) {
      if (customFields[name]) customFields[name] = box.encrypt(customFields[name])
    }
    const shown = maskUrl(webhook.url, webhook.service)
    return {
      id: webhook.id,
      name: webhook.name,
      url_enc: box.encrypt(webhook.url),
      url_masked: shown.url,
      method: webhook.method,
      headers_json: JSON.stringify(plain),
      secret_headers_json: JSON.stringify(sealed),
      enabled: webhook.enabled ? 1 : 0,
      service: webhook.service,
      template: webhook.template,
      custom_fields_json: JSON.stringify(customFields),
      secret_fields_json: JSON.stringify(webhook.secretFields),
      created_at: now,
      updated_at: now,
    }
  }

  const row = (id: string) => selectOne.get(id) as Row | undefined

  const resolveInput = (input: WebhookInput, id?: string): Webhook => {
    const stored = id === undefined ? undefined : row(id)
    let url = input.url
    if (stored && url === stored.url_masked) url = box.decrypt(stored.url_enc)
    else if (url.includes(URL_MASK)) {
      throw new WebhookInputError('url', 'holds masked parts (****); enter the full URL again')
    }
    const storedWebhook = stored ? resolved(stored) : undefined
    // A stored secret was entered for its origin: a URL pointing elsewhere never inherits it.
    const moved = storedWebhook !== undefined && originOf(url) !== originOf(storedWebhook.url)
    const keep = (field: string, value: string): string => {
      if (moved) throw new WebhookInputError(field, MOVED)
      return value
    }
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(input.headers)) {
      if (isCredentialHeader(name) && (value === '' || value === HEADER_MASK)) {
        const key = storedWebhook && findKey(storedWebhook.headers, name)
        if (key !== undefined) headers[name] = keep(`headers.${name}`, storedWebhook!.headers[key]!)
        else if (value === HEADER_MASK) {
          throw new WebhookInputError(`headers.${name}`, 'enter the value again')
        }
        continue
      }
      headers[name] = value
    }
    const customFields = { ...input.customFields }
    for (const name of input.secretFields) {
      if (customFields[name] === '' && storedWebhook?.customFields[name]) {
        customFields[name] = keep(`customFields.${name}`, storedWebhook.customFields[name])
      }
    }
    return { ...input, id: id ?? '', url, headers, customFields }
  }

  return {
    list: () => (selectAll.all() as Row[]).map(masked),
    get: (id) => {
      const found = row(id)
      return found && masked(found)
    },
    listResolved: () => (selectAll.all() as Row[]).map(resolved),
    getResolved: (id) => {
      const found = row(id)
      return found && resolved(found)
    },
    resolveInput,
    create(input, now) {
      const webhook = resolveInput(input)
      webhook.id = crypto.randomUUID()
      insert.run(toRow(webhook, now))
      return masked(row(webhook.id)!)
    },
    update(id, input, now) {
      if (!row(id)) return undefined
      const webhook = resolveInput(input, id)
      replace.run(toRow(webhook, now))
      return masked(row(id)!)
    },
    remove: (id) => deleteOne.run(id).changes > 0,
    replaceAll(webhooks, now) {
      deleteAll.run()
      for (const webhook of webhooks) insert.run(toRow(webhook, now))
    },
  }
}
