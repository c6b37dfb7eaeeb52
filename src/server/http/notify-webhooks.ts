// Webhook routes (wire-protocol.md §3.7): list, add, edit, delete, test, and the service templates.
// Secrets never leave in an answer (webhook-repo.ts masks them). Reads need any caller the guard
// lets through; writes and the test (it makes the server send a request) need an admin, and the
// guard checks CSRF on every write. Errors answer `{ error, code, message }` as /api/alerts does.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Webhook } from '../../shared/model/notifications.ts'
import type { AuditLog } from '../auth/audit.ts'
import { requireAdmin } from '../auth/guard.ts'
import type { WebhookChannel } from '../notify/webhook/channel.ts'
import { sampleBatch } from '../notify/webhook/sample.ts'
import { WEBHOOK_TEMPLATES } from '../notify/webhook/templates.ts'
import type { UrlSafetyOptions } from '../notify/webhook/url-safety.ts'
import { allowEmptyJsonBody } from '../parse-body.ts'
import { WebhookInputError, type WebhookRepo } from '../store/webhook-repo.ts'
import {
  checkRequiredFields,
  fail,
  parseWebhookInput,
  WebhookRouteError,
} from './notify-webhook-input.ts'

/** Webhooks an installation may hold. */
export const WEBHOOKS_MAX = 100
const BASE = '/api/notifications'

export interface WebhookRouteDeps {
  repo: WebhookRepo
  channel: WebhookChannel
  audit: AuditLog
  safety: UrlSafetyOptions
  now: () => number
}

/** Register the /api/notifications webhook routes. */
export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps): void {
  const { repo } = deps

  const audit = (request: FastifyRequest, username: string, detail: string) =>
    deps.audit.record({ type: 'webhook_changed', username, ip: request.ip, detail })

  const notFound = (id: string): never => fail(`webhook not found: ${id}`, 404)

  /** The submitted webhook with stored secrets merged; a repo refusal names its field. */
  const merged = <T>(work: () => T): T => {
    try {
      return work()
    } catch (err) {
      if (err instanceof WebhookInputError) return fail(err.message)
      throw err
    }
  }

  void app.register(async (scope) => {
    allowEmptyJsonBody(scope)
    scope.setErrorHandler((err, _request, reply) => {
      if (err instanceof WebhookRouteError) {
        return reply
          .status(err.status)
          .send({ error: err.message, code: err.code, message: err.message })
      }
      throw err
    })

    scope.get(`${BASE}/webhooks`, async () => repo.list())
    scope.get(`${BASE}/webhook-templates`, async () => WEBHOOK_TEMPLATES)

    scope.post(`${BASE}/webhooks`, async (request) => {
      const caller = requireAdmin(request)
      const input = parseWebhookInput(request.body, deps.safety)
      if (repo.list().length >= WEBHOOKS_MAX) fail(`webhooks: at most ${WEBHOOKS_MAX} allowed`)
      checkRequiredFields(merged(() => repo.resolveInput(input)))
      const created = merged(() => repo.create(input, deps.now()))
      audit(request, caller.username, `webhook added: ${created.name} (${created.service})`)
      return created
    })

    scope.put(`${BASE}/webhooks/:id`, async (request) => {
      const caller = requireAdmin(request)
      const { id } = request.params as { id: string }
      if (!repo.get(id)) return notFound(id)
      const input = parseWebhookInput(request.body, deps.safety)
      checkRequiredFields(merged(() => repo.resolveInput(input, id)))
      const updated = merged(() => repo.update(id, input, deps.now())) ?? notFound(id)
      audit(request, caller.username, `webhook updated: ${updated.name} (${updated.service})`)
      return updated
    })

    scope.delete(`${BASE}/webhooks/:id`, async (request) => {
      const caller = requireAdmin(request)
      const { id } = request.params as { id: string }
      const existing = repo.get(id) ?? notFound(id)
      repo.remove(id)
      audit(request, caller.username, `webhook deleted: ${existing.name}`)
      return { status: 'success' }
    })

    scope.post(`${BASE}/webhooks/test`, async (request, reply) => {
      requireAdmin(request)
      const webhook = testTarget(request.body)
      const attempt = await deps.channel.deliver(sampleBatch(deps.now()), webhook)
      if (attempt.ok) return { status: attempt.status, response: attempt.response, success: true }
      return reply.status(400).send({
        error: attempt.error,
        code: 'WEBHOOK_TEST_FAILED',
        message: attempt.error,
        ...(attempt.status !== undefined && { status: attempt.status }),
        ...(attempt.response !== undefined && { response: attempt.response }),
        success: false,
      })
    })
  })

  /**
   * What a test sends to: `{ id }` alone is the stored webhook; a full body is the form as it
   * stands (unsaved), its masked or empty secrets taken from the stored webhook of its `id`.
   */
  const testTarget = (body: unknown): Webhook => {
    const b = (body ?? {}) as Record<string, unknown>
    const id = typeof b.id === 'string' && b.id !== '' ? b.id : undefined
    if (id !== undefined && b.url === undefined) return repo.getResolved(id) ?? notFound(id)
    const input = parseWebhookInput(body, deps.safety)
    if (id !== undefined && !repo.get(id)) return notFound(id)
    const webhook = merged(() => repo.resolveInput(input, id))
    checkRequiredFields(webhook)
    return webhook
  }
}

/**
 * POST /api/notifications/test with `{type: 'webhook', webhookId}` (the reference's form; the
 * email routes own that path and hand other types here): a sample alert to the stored webhook.
 */
export async function testStoredWebhook(
  request: FastifyRequest,
  body: Record<string, unknown>,
  deps: Pick<WebhookRouteDeps, 'repo' | 'channel' | 'now'>,
): Promise<{ status: 'success'; message: string }> {
  requireAdmin(request)
  const type = body.type ?? body.method
  if (type !== 'webhook') return fail("type: must be 'email' or 'webhook'")
  const id = body.webhookId ?? body.id
  if (typeof id !== 'string' || id === '') return fail('webhookId: required for a webhook test')
  const webhook = deps.repo.getResolved(id) ?? fail('Webhook not found', 404)
  const attempt = await deps.channel.deliver(sampleBatch(deps.now()), webhook)
  if (!attempt.ok) return fail(attempt.error)
  return { status: 'success', message: 'Test notification sent' }
}
