// The email notification settings: one row. The password is sealed with the secret box; only
// `getResolved` (server-side, for sending) ever opens it.
import type { EmailConfig } from '../../shared/model/notifications.ts'
import type { Db } from './db.ts'
import type { SecretBox } from './secret-box.ts'

/** Fresh install (spec 001 §9): off, port 587 with STARTTLS, 60/min, 3 retries, 5 s apart. */
export const EMAIL_DEFAULTS: Readonly<EmailConfig> = Object.freeze({
  enabled: false,
  provider: '',
  server: '',
  port: 587,
  username: '',
  password: '',
  from: '',
  to: [],
  tls: false,
  startTLS: true,
  replyTo: '',
  rateLimit: 60,
  maxRetries: 3,
  retryDelay: 5,
})

export interface EmailRepo {
  /** The settings for a client: password '' and `hasPassword`. */
  get(): EmailConfig
  /** The settings with the password opened: server memory only, never serialised to a client. */
  getResolved(): EmailConfig
  /**
   * Store `input` (already validated). An empty password keeps the stored one; `clearPassword`
   * removes it; any other password replaces it.
   */
  save(input: EmailConfig, now: number): void
}

interface Row {
  json: string
  password_enc: string | null
}

/** The stored keys: everything but the write-only password fields. */
function settingsOf(config: EmailConfig): Omit<EmailConfig, 'password'> {
  return {
    enabled: config.enabled,
    provider: config.provider,
    server: config.server,
    port: config.port,
    username: config.username,
    from: config.from,
    to: [...config.to],
    tls: config.tls,
    startTLS: config.startTLS,
    replyTo: config.replyTo,
    rateLimit: config.rateLimit,
    maxRetries: config.maxRetries,
    retryDelay: config.retryDelay,
  }
}

/** Repository over the `email_config` table. */
export function createEmailRepo(db: Db, box: SecretBox): EmailRepo {
  const select = db.prepare('SELECT json, password_enc FROM email_config WHERE id = 1')
  const upsert = db.prepare(`INSERT INTO email_config (id, json, password_enc, updated_at)
    VALUES (1, @json, @password_enc, @now)
    ON CONFLICT (id) DO UPDATE SET json = excluded.json, password_enc = excluded.password_enc,
      updated_at = excluded.updated_at`)

  const read = (): { settings: Omit<EmailConfig, 'password'>; sealed: string | null } => {
    const row = select.get() as Row | undefined
    if (!row) return { settings: settingsOf(EMAIL_DEFAULTS), sealed: null }
    // Keys added by later versions take their defaults on an older row.
    const stored = JSON.parse(row.json) as Partial<EmailConfig>
    return { settings: settingsOf({ ...EMAIL_DEFAULTS, ...stored }), sealed: row.password_enc }
  }

  return {
    get() {
      const { settings, sealed } = read()
      return { ...settings, password: '', hasPassword: sealed !== null }
    },
    getResolved() {
      const { settings, sealed } = read()
      const password = sealed === null ? '' : box.decrypt(sealed)
      return { ...settings, password, hasPassword: sealed !== null }
    },
    save(input, now) {
      let sealed = read().sealed
      if (input.clearPassword) sealed = null
      else if (input.password !== '') sealed = box.encrypt(input.password)
      upsert.run({ json: JSON.stringify(settingsOf(input)), password_enc: sealed, now })
    },
  }
}
