// API token routes (issue 29 items 4 and 7): list, create (the value answered once, no-store)
// and revoke. Administrators only (route-roles.ts); every change is audited by the service.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { API_TOKEN_NAME_MAX, type CreatedApiToken } from '../../shared/model/api-tokens.ts'
import { ROLES } from '../../shared/model/roles.ts'
import type { ApiTokenService } from '../auth/api-tokens.ts'
import { requireAdmin } from '../auth/guard.ts'
import { parseBody } from '../parse-body.ts'

export const createTokenSchema = z.strictObject({
  name: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(API_TOKEN_NAME_MAX, `must be at most ${API_TOKEN_NAME_MAX} characters`)
    .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters'),
  role: z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` }),
})

/** Register /api/security/tokens. */
export function registerTokenRoutes(app: FastifyInstance, tokens: ApiTokenService): void {
  app.get('/api/security/tokens', async (request, reply) => {
    requireAdmin(request)
    reply.header('Cache-Control', 'no-store')
    return { tokens: tokens.list() }
  })

  app.post('/api/security/tokens', async (request, reply): Promise<CreatedApiToken> => {
    const caller = requireAdmin(request)
    const input = parseBody(createTokenSchema, request.body ?? {})
    reply.header('Cache-Control', 'no-store')
    reply.code(201)
    return tokens.create(input, caller.username, request.ip)
  })

  app.delete<{ Params: { id: string } }>('/api/security/tokens/:id', async (request) => {
    const caller = requireAdmin(request)
    tokens.revoke(request.params.id, caller.username, request.ip)
    return { success: true }
  })
}
