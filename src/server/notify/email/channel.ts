// The email channel: one SMTP message per batch through nodemailer. Implicit TLS or STARTTLS
// (required, not opportunistic, when chosen), authentication when a username is set, a rate
// limit per minute. Retries are the outbox's business: the channel makes one attempt and says
// whether another could succeed; maxAttempts / retryDelayMs carry the settings there.
import net from 'node:net'
import nodemailer from 'nodemailer'
import type { EmailConfig, NotificationBatch } from '../../../shared/model/notifications.ts'
import type { Channel, ResolvedDestination, SendResult } from '../types.ts'
import { renderEmail, type RenderedEmail } from './render.ts'
import { describeSmtpError } from './smtp-errors.ts'

const MINUTE_MS = 60_000

export interface EmailChannelDeps {
  now?: () => number
  /** PULSE_PUBLIC_URL, linked from every message. */
  publicUrl?: string
  /**
   * Tests only: false accepts the self-signed certificate of a loopback test server. Production
   * never passes it, so certificates are always verified.
   */
  tlsRejectUnauthorized?: boolean
  /** Connection and greeting timeout; the socket gets three times as long. Default 10 s. */
  timeoutMs?: number
}

export interface EmailChannel extends Channel {
  /** Send one ready message now, outside the rate limit (the test button). */
  sendMessage(config: EmailConfig, message: RenderedEmail): Promise<SendResult>
  maxAttempts(config: EmailConfig): number
  retryDelayMs(config: EmailConfig): number
}

/** Attempts per message: the first plus maxRetries (0-5). */
export const maxAttempts = (config: EmailConfig): number => 1 + Math.max(0, config.maxRetries)

/** Delay before a retry, from retryDelay in seconds (1-60). */
export const retryDelayMs = (config: EmailConfig): number => Math.max(1, config.retryDelay) * 1000

/** The recipients, one per entry, blanks dropped; none means the sender itself. */
export function recipientsOf(config: EmailConfig): string[] {
  const to = config.to.map((t) => t.trim()).filter((t) => t !== '')
  return to.length > 0 ? to : [config.from]
}

/** Build the email channel. */
export function createEmailChannel(deps: EmailChannelDeps = {}): EmailChannel {
  const now = deps.now ?? Date.now
  const timeoutMs = deps.timeoutMs ?? 10_000
  // Send times of the last minute, oldest first (the limit is at most 600, so a plain array).
  const recent: number[] = []

  const deliver = async (config: EmailConfig, message: RenderedEmail): Promise<SendResult> => {
    if (!config.server) return { ok: false, retryable: false, error: 'SMTP server is not set' }
    if (!config.from) return { ok: false, retryable: false, error: 'From address is not set' }
    const transport = nodemailer.createTransport({
      host: config.server,
      port: config.port,
      secure: config.tls,
      requireTLS: !config.tls && config.startTLS,
      auth: config.username ? { user: config.username, pass: config.password } : undefined,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs * 3,
      tls: {
        rejectUnauthorized: deps.tlsRejectUnauthorized ?? true,
        // SNI takes host names only (RFC 6066).
        ...(net.isIP(config.server) === 0 ? { servername: config.server } : {}),
      },
    })
    try {
      const info = await transport.sendMail({
        from: config.from,
        to: recipientsOf(config),
        replyTo: config.replyTo || undefined,
        subject: message.subject,
        text: message.text,
        html: message.html,
      })
      return { ok: true, info: String(info.response ?? info.messageId ?? '') }
    } catch (err) {
      return describeSmtpError(err, config.server, config.port)
    } finally {
      transport.close()
    }
  }

  return {
    maxAttempts,
    retryDelayMs,
    sendMessage: deliver,
    async send(batch: NotificationBatch, destination: ResolvedDestination) {
      if (destination.kind !== 'email')
        return { ok: false, retryable: false, error: 'not an email destination' }
      const config = destination.config
      const t = now()
      while (recent.length > 0 && recent[0]! <= t - MINUTE_MS) recent.shift()
      if (recent.length >= config.rateLimit) {
        return {
          ok: false,
          retryable: true,
          deferred: true,
          error: `rate limit of ${config.rateLimit} emails per minute reached`,
        }
      }
      recent.push(t)
      return deliver(config, renderEmail(batch, { publicUrl: deps.publicUrl }))
    },
  }
}
