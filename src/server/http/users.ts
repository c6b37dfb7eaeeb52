// Local users (issue 29 items 2 and 7): GET/POST /api/users, PUT/DELETE /api/users/:username, for
// admins only (route-roles.ts). Answers never hold a password hash; a 400 names the field.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { AppError } from '../../shared/model/errors.ts'
import { ROLES } from '../../shared/model/roles.ts'
import { USERNAME_MAX_LENGTH, USERNAME_PATTERN } from '../../shared/model/users.ts'
import type { AuthService } from '../auth/auth-service.ts'
import { PASSWORD_MIN_LENGTH } from '../auth/auth-service.ts'
import { requireAdmin } from '../auth/guard.ts'
import { parseBody } from '../parse-body.ts'

const MAX_PASSWORD = 1024

export const usernameSchema = z
  .string({ error: 'is required' })
  .min(1, 'is required')
  .max(USERNAME_MAX_LENGTH, `must be at most ${USERNAME_MAX_LENGTH} characters`)
  .regex(USERNAME_PATTERN, 'may contain letters, digits, ".", "_", "@" and "-" only')

const passwordSchema = z
  .string({ error: 'is required' })
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(MAX_PASSWORD, `must be at most ${MAX_PASSWORD} characters`)

const roleSchema = z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` })
const disabledSchema = z.boolean({ error: 'must be true or false' })

export const createUserSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  role: roleSchema,
  disabled: disabledSchema.optional(),
})

export const updateUserSchema = z.object({
  password: passwordSchema.optional(),
  role: roleSchema.optional(),
  disabled: disabledSchema.optional(),
})

/** parseBody, with a 400 naming the first field the schema does not know. */
function parseStrict<Schema extends z.ZodObject>(schema: Schema, body: unknown): z.output<Schema> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const unknown = Object.keys(body).find((field) => !(field in schema.shape))
    if (unknown !== undefined) {
      throw new AppError('FIELD_INVALID', {
        field: unknown.slice(0, 64),
        problem: 'is not a known field',
      })
    }
  }
  return parseBody(schema, body)
}

/** Register the /api/users routes. */
export function registerUserRoutes(app: FastifyInstance, auth: AuthService): void {
  const users = auth.users

  app.get('/api/users', async (request, reply) => {
    requireAdmin(request)
    reply.header('Cache-Control', 'no-store')
    return { users: users.list() }
  })

  app.post('/api/users', async (request, reply) => {
    const caller = requireAdmin(request)
    const input = parseStrict(createUserSchema, request.body)
    const user = await users.create(input, caller.username, request.ip)
    reply.code(201)
    return user
  })

  app.put<{ Params: { username: string } }>('/api/users/:username', async (request) => {
    const caller = requireAdmin(request)
    const input = parseStrict(updateUserSchema, request.body)
    return users.update(request.params.username, input, caller.username, request.ip)
  })

  app.delete<{ Params: { username: string } }>('/api/users/:username', async (request) => {
    const caller = requireAdmin(request)
    users.remove(request.params.username, caller.username, request.ip)
    return { success: true }
  })
}
