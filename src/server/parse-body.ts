// Request body validation shared by the routes: a zod schema, and a 400 that names the field.
import type { FastifyInstance } from 'fastify'
import type { z } from 'zod'
import { AppError } from '../shared/model/errors.ts'

/** Parse a JSON object body; throws BODY_INVALID, or FIELD_INVALID naming the first bad field. */
export function parseBody<Schema extends z.ZodType>(
  schema: Schema,
  body: unknown,
): z.output<Schema> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('BODY_INVALID')
  }
  const result = schema.safeParse(body)
  if (!result.success) {
    const issue = result.error.issues[0]!
    throw new AppError('FIELD_INVALID', {
      field: issue.path.join('.') || 'body',
      problem: issue.message,
    })
  }
  return result.data
}

/**
 * Let an empty `application/json` body read as null in `scope`, otherwise parse exactly as every
 * other route does: Fastify's own parser, which refuses `__proto__` and `constructor.prototype`
 * keys with a 400 (a hand-rolled JSON.parse here would let them through).
 */
export function allowEmptyJsonBody(scope: FastifyInstance): void {
  const parseJson = scope.getDefaultJsonParser('error', 'error')
  scope.removeContentTypeParser('application/json')
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    if (text === '') return done(null, null)
    // The default parser answers through `done`; its declared Promise return is never used.
    void parseJson(request, String(text), done)
  })
}

/** True for an absolute http:// or https:// URL with a complete host name. */
export function isHttpUrl(text: string): boolean {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return false
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  // 'https://example.' is an incomplete domain (the reference rejects it too).
  return url.hostname !== '' && !url.hostname.endsWith('.')
}
