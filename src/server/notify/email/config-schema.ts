// Validation of the email settings (spec 001 §5 Email, §9 defaults): what PUT
// /api/notifications/email and the test route accept. Keys the reference's client leaves out
// (replyTo, rateLimit, maxRetries, retryDelay) keep their stored values.
import { z } from 'zod'
import type { EmailConfig } from '../../../shared/model/notifications.ts'

export const EMAIL_RECIPIENTS_MAX = 50

const address = z.email()

/** 'ops@example.com' or 'Pulse Alerts <ops@example.com>'. */
export function isEmailAddress(text: string): boolean {
  const named = /^[^<>\r\n]*<([^<>\s]+)>$/.exec(text)
  return address.safeParse(named ? named[1] : text).success
}

const emailText = (what: string) =>
  z
    .string({ error: `must be ${what}` })
    .trim()
    .max(320)
    .refine((v) => v === '' || isEmailAddress(v), { error: `must be ${what}` })

const int = (min: number, max: number) =>
  z
    .number({ error: `must be a whole number from ${min} to ${max}` })
    .int({ error: `must be a whole number from ${min} to ${max}` })
    .min(min, { error: `must be a whole number from ${min} to ${max}` })
    .max(max, { error: `must be a whole number from ${min} to ${max}` })

const bool = z.boolean({ error: 'must be true or false' })

const schema = z.object({
  enabled: bool.optional(),
  provider: z.string({ error: 'must be a string' }).trim().max(100).optional(),
  server: z
    .string({ error: 'must be a host name' })
    .trim()
    .max(253)
    .refine((v) => !/[\s/]/.test(v), { error: 'must be a host name without spaces or slashes' })
    .optional(),
  port: int(1, 65535).optional(),
  username: z.string({ error: 'must be a string' }).max(320).optional(),
  password: z.string({ error: 'must be a string' }).max(1024).optional(),
  clearPassword: bool.optional(),
  from: emailText('an email address').optional(),
  to: z
    .array(emailText('an email address'), { error: 'must be a list of email addresses' })
    .max(EMAIL_RECIPIENTS_MAX, { error: `must have at most ${EMAIL_RECIPIENTS_MAX} addresses` })
    .transform((list) => list.filter((v) => v !== ''))
    .optional(),
  tls: bool.optional(),
  startTLS: bool.optional(),
  replyTo: emailText('an email address').optional(),
  rateLimit: int(1, 600).optional(),
  maxRetries: int(0, 5).optional(),
  retryDelay: int(1, 60).optional(),
})

export type EmailParse = { ok: true; config: EmailConfig } | { ok: false; message: string }

/**
 * Validate `body` over `current` (the stored settings). The password stays as given ('' keeps the
 * stored one when saved); `hasPassword` is ignored. The message names the field.
 */
export function parseEmailConfig(body: unknown, current: EmailConfig): EmailParse {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, message: 'body: must be a JSON object' }
  const result = schema.safeParse(body)
  if (!result.success) {
    const issue = result.error.issues[0]!
    return { ok: false, message: `${issue.path.join('.') || 'body'}: ${issue.message}` }
  }
  const input = result.data
  const config: EmailConfig = {
    enabled: input.enabled ?? current.enabled,
    provider: input.provider ?? current.provider,
    server: input.server ?? current.server,
    port: input.port ?? current.port,
    username: input.username ?? current.username,
    password: input.password ?? '',
    clearPassword: input.clearPassword ?? false,
    from: input.from ?? current.from,
    to: input.to ?? current.to,
    tls: input.tls ?? current.tls,
    startTLS: input.startTLS ?? current.startTLS,
    replyTo: input.replyTo ?? current.replyTo,
    rateLimit: input.rateLimit ?? current.rateLimit,
    maxRetries: input.maxRetries ?? current.maxRetries,
    retryDelay: input.retryDelay ?? current.retryDelay,
  }
  // Enabled settings must be able to send; disabled ones may be saved half-filled.
  if (config.enabled) {
    const missing = requiredMissing(config)
    if (missing) return { ok: false, message: missing }
  }
  return { ok: true, config }
}

/** The first setting a send needs that is blank, as a 400 message; undefined when complete. */
export function requiredMissing(config: EmailConfig): string | undefined {
  if (config.server === '') return 'server: is required to send email'
  if (config.from === '') return 'from: is required to send email'
  return undefined
}
