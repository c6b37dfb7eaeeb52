// Email notification routes (wire-protocol.md §3.7): the settings, the provider list and the test
// button. Answers never hold the SMTP password (hasPassword instead). Errors answer
// `{ error, code, message }` like the alert routes; a 400 names the field and saves nothing.
// Reads need any caller the guard lets through; saving and testing need an admin (the guard
// checks CSRF on every write). A test with unsaved settings and a blank password uses the stored
// one, so the password never has to travel back to the browser.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AuditLog } from '../auth/audit.ts'
import { requireAdmin } from '../auth/guard.ts'
import type { EmailChannel } from '../notify/email/channel.ts'
import { parseEmailConfig, requiredMissing } from '../notify/email/config-schema.ts'
import { EMAIL_PROVIDERS } from '../notify/email/providers.ts'
import type { EmailRepo } from '../store/email-repo.ts'

/** A 400 (or other) answered as `{ error, code, message }`. */
class NotifyRouteError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

const fail = (message: string, code = 'FIELD_INVALID', status = 400): never => {
  throw new NotifyRouteError(status, code, message)
}

export interface EmailRouteDeps {
  repo: EmailRepo
  channel: EmailChannel
  audit: AuditLog
  now: () => number
  /**
   * POST /api/notifications/test with another type than email (the webhook routes answer it);
   * without it such a request is a 400.
   */
  testOther?: (request: FastifyRequest, body: Record<string, unknown>) => Promise<unknown>
}

const TEST_SUBJECT = '[Pulse] Test notification'
const TEST_TEXT =
  'This is a test email from Pulse. Your email notification settings work: alerts will be ' +
  'delivered to this address.'

/** Register /api/notifications/email, /email-providers and /test. */
export function registerEmailRoutes(app: FastifyInstance, deps: EmailRouteDeps): void {
  const { repo, channel } = deps
  void app.register(async (scope) => {
    scope.setErrorHandler((err, _request, reply) => {
      if (err instanceof NotifyRouteError) {
        return reply
          .status(err.status)
          .send({ error: err.message, code: err.code, message: err.message })
      }
      // Guard refusals and bad JSON as the root handler answers them.
      throw err
    })

    scope.get('/api/notifications/email', async () => repo.get())
    scope.put('/api/notifications/email', async (request) => {
      const caller = requireAdmin(request)
      const parsed = parseEmailConfig(request.body, repo.get())
      if (!parsed.ok) return fail(parsed.message)
      const config = parsed.config
      repo.save(config, deps.now())
      const password = config.clearPassword
        ? ', password cleared'
        : config.password
          ? ', password changed'
          : ''
      deps.audit.record({
        type: 'email_config_changed',
        username: caller.username,
        ip: request.ip,
        detail:
          `email ${config.enabled ? 'enabled' : 'disabled'}, ` +
          `${config.server || '(no server)'}:${config.port}${password}`,
      })
      return { status: 'success' }
    })
    scope.get('/api/notifications/email-providers', async () => EMAIL_PROVIDERS)

    scope.post('/api/notifications/test', async (request) => {
      requireAdmin(request)
      const body = request.body
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return fail('body: must be a JSON object')
      const fields = body as Record<string, unknown>
      const type = fields.type ?? fields.method
      if (type !== 'email') {
        if (deps.testOther) return deps.testOther(request, fields)
        return fail("type: must be 'email' or 'webhook'")
      }
      const stored = repo.getResolved()
      let config = stored
      if (fields.config !== undefined && fields.config !== null) {
        const parsed = parseEmailConfig(fields.config, stored)
        if (!parsed.ok) return fail(`config.${parsed.message}`)
        config = parsed.config
        if (config.clearPassword) config.password = ''
        else if (config.password === '') config.password = stored.password
      }
      const missing = requiredMissing(config)
      if (missing) return fail(missing)
      const result = await channel.sendMessage(config, {
        subject: TEST_SUBJECT,
        text: TEST_TEXT,
        html: `<!DOCTYPE html><html><body><p>${TEST_TEXT}</p></body></html>`,
      })
      if (!result.ok) return fail(result.error, 'EMAIL_TEST_FAILED')
      return { status: 'success', message: 'Test notification sent' }
    })
  })
}
