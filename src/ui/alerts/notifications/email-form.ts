// The email card's form (spec 001 §3 Email config, §5 Email rules, §9 defaults): text fields as
// typed, turned into an EmailConfig only on Save or Test. Pure, so the rules are tested alone.
import type { EmailConfig, EmailProvider } from '../../../shared/model/notifications.ts'

/** The provider value that leaves host, port and TLS to the user. */
export const CUSTOM_PROVIDER = 'Custom SMTP Server'

export const EMAIL_LIMITS = {
  rateLimit: { min: 1, max: 600, fallback: 60 },
  maxRetries: { min: 0, max: 5, fallback: 3 },
  retryDelay: { min: 1, max: 60, fallback: 5 },
} as const

export interface EmailForm {
  enabled: boolean
  provider: string
  server: string
  port: string
  username: string
  /** '' keeps the stored password. */
  password: string
  hasPassword: boolean
  /** Remove the stored password on Save; typing a new one cancels it. */
  clearPassword: boolean
  from: string
  /** One address per line. */
  to: string
  tls: boolean
  startTLS: boolean
  replyTo: string
  rateLimit: string
  maxRetries: string
  retryDelay: string
}

export type EmailField = keyof EmailForm

export function toEmailForm(config: EmailConfig): EmailForm {
  return {
    enabled: config.enabled,
    provider: config.provider || CUSTOM_PROVIDER,
    server: config.server,
    port: String(config.port),
    username: config.username,
    password: '',
    hasPassword: config.hasPassword === true,
    clearPassword: false,
    from: config.from,
    to: config.to.join('\n'),
    tls: config.tls,
    startTLS: config.startTLS,
    replyTo: config.replyTo,
    rateLimit: String(config.rateLimit),
    maxRetries: String(config.maxRetries),
    retryDelay: String(config.retryDelay),
  }
}

/** Picking a provider fills its host, port and TLS mode; the custom entry changes nothing. */
export function applyProvider(form: EmailForm, provider: EmailProvider | undefined): EmailForm {
  if (!provider || !provider.smtpHost)
    return { ...form, provider: provider?.name ?? CUSTOM_PROVIDER }
  return {
    ...form,
    provider: provider.name,
    server: provider.smtpHost,
    port: String(provider.smtpPort),
    tls: provider.tls,
    startTLS: provider.startTLS,
  }
}

/** Recipients one per line (commas tolerated), blanks removed. */
export function recipients(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean)
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+$/

/** Spec 001 §5: a port that is not a number becomes 587. */
export function portOf(text: string): number {
  const port = Number(text.trim())
  return text.trim() && Number.isInteger(port) ? port : 587
}

function intIn(text: string, min: number, max: number): boolean {
  const value = Number(text.trim())
  return text.trim() !== '' && Number.isInteger(value) && value >= min && value <= max
}

/**
 * Field errors of the form, by field; empty when it can be saved. Host and sender are required
 * only while email is enabled, so a half-filled disabled config can still be stored.
 */
export function validateEmail(form: EmailForm): Partial<Record<EmailField, string>> {
  const errors: Partial<Record<EmailField, string>> = {}
  if (form.enabled && !form.server.trim()) errors.server = 'SMTP server is required'
  const port = portOf(form.port)
  if (port < 1 || port > 65535) errors.port = 'Port must be between 1 and 65535'
  if (form.enabled && !form.from.trim()) errors.from = 'From address is required'
  else if (form.from.trim() && !EMAIL_RE.test(form.from.trim()))
    errors.from = 'From address is not a valid email address'
  const bad = recipients(form.to).find((address) => !EMAIL_RE.test(address))
  if (bad !== undefined) errors.to = `Not a valid email address: ${bad}`
  if (form.replyTo.trim() && !EMAIL_RE.test(form.replyTo.trim()))
    errors.replyTo = 'Reply-to is not a valid email address'
  const { rateLimit, maxRetries, retryDelay } = EMAIL_LIMITS
  if (form.rateLimit.trim() && !intIn(form.rateLimit, rateLimit.min, rateLimit.max))
    errors.rateLimit = `Rate limit must be between ${rateLimit.min} and ${rateLimit.max} per minute`
  if (!intIn(form.maxRetries, maxRetries.min, maxRetries.max))
    errors.maxRetries = `Retries must be between ${maxRetries.min} and ${maxRetries.max}`
  if (!intIn(form.retryDelay, retryDelay.min, retryDelay.max))
    errors.retryDelay = `Retry delay must be between ${retryDelay.min} and ${retryDelay.max} seconds`
  return errors
}

/** The config sent on Save and Test; a blank password keeps the stored one (server rule). */
export function toEmailConfig(form: EmailForm): EmailConfig {
  const rate = form.rateLimit.trim() ? Number(form.rateLimit) : EMAIL_LIMITS.rateLimit.fallback
  const config: EmailConfig = {
    enabled: form.enabled,
    provider: form.provider,
    server: form.server.trim(),
    port: portOf(form.port),
    username: form.username.trim(),
    password: form.password,
    from: form.from.trim(),
    to: recipients(form.to),
    tls: form.tls,
    startTLS: form.startTLS,
    replyTo: form.replyTo.trim(),
    rateLimit: rate,
    maxRetries: Number(form.maxRetries),
    retryDelay: Number(form.retryDelay),
  }
  if (form.clearPassword && !form.password) config.clearPassword = true
  return config
}

/** The form as saved: the password field blank again, the stored flag as the server now has it. */
export function afterSave(form: EmailForm): EmailForm {
  const stored = form.password !== '' || (form.hasPassword && !form.clearPassword)
  return { ...form, password: '', hasPassword: stored, clearPassword: false }
}
