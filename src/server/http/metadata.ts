// Guest metadata routes (spec 000 §7): a custom URL, a description and tags per guest key.
// GET of an unknown guest answers its empty record (as the reference does), never 404; DELETE is
// idempotent (204 either way); PUT merges the fields present. Unknown body fields are ignored.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { AppError } from '../../shared/model/errors.ts'
import { GUEST_ID_MAX, isSafeGuestId } from '../../shared/model/node-name.ts'
import { allowEmptyJsonBody, isHttpUrl, parseBody } from '../parse-body.ts'
import {
  emptyMetadata,
  type GuestMetadataPatch,
  type MetadataRepo,
} from '../store/metadata-repo.ts'

const MAX_URL = 2048
const MAX_DESCRIPTION = 1000
const MAX_TAGS = 50
const MAX_TAG = 100

const clearable = (schema: z.ZodString) =>
  schema
    .nullable()
    .optional()
    .transform((v) => (v === null ? '' : v))

export const metadataInputSchema = z.object({
  customUrl: clearable(
    z
      .string({ error: 'must be a string' })
      .trim()
      .max(MAX_URL, `must be at most ${MAX_URL} characters`)
      .refine((v) => v === '' || isHttpUrl(v), {
        message: 'must be an http:// or https:// URL with a host',
      }),
  ),
  description: clearable(
    z
      .string({ error: 'must be a string' })
      .max(MAX_DESCRIPTION, `must be at most ${MAX_DESCRIPTION} characters`),
  ),
  tags: z
    .array(
      z
        .string({ error: 'must be a string' })
        .trim()
        .min(1, 'must not be empty')
        .max(MAX_TAG, `must be at most ${MAX_TAG} characters`),
      { error: 'must be a list of strings' },
    )
    .max(MAX_TAGS, `must have at most ${MAX_TAGS} entries`)
    .optional(),
})

/** Parse a PUT body; throws BODY_INVALID or FIELD_INVALID naming the first bad field. */
export function parseMetadataInput(body: unknown): GuestMetadataPatch {
  return parseBody(metadataInputSchema, body)
}

/**
 * The guest id of a request path; throws FIELD_INVALID unless it is 1-300 visible characters
 * other than '/'.
 * Ids embed the configured node name (instance-node-vmid), so this accepts every character a node
 * name may have (shared/model/node-name.ts), spaces included.
 */
export function parseGuestId(raw: unknown): string {
  if (typeof raw !== 'string' || !isSafeGuestId(raw)) {
    throw new AppError('FIELD_INVALID', {
      field: 'guestId',
      problem: `must be 1-${GUEST_ID_MAX} letters, digits, spaces, punctuation or symbols, no "/"`,
    })
  }
  return raw
}

/** Register GET/PUT/DELETE /api/guests/metadata[/:guestId]. */
export function registerMetadataRoutes(
  app: FastifyInstance,
  repo: MetadataRepo,
  now: () => number = Date.now,
): void {
  // A wildcard rather than ':guestId': Fastify's router caps named parameters at 100 characters.
  const path = '/api/guests/metadata/*'
  const guestIdOf = (params: unknown) => parseGuestId((params as Record<string, unknown>)['*'])

  void app.register(async (scope) => {
    // The client's JSON helper sends Content-Type JSON on a body-less DELETE too (spec 000 §7);
    // in this scope an empty JSON body reads as null instead of a 400.
    allowEmptyJsonBody(scope)
    scope.get('/api/guests/metadata', async () => repo.all())
    scope.get(path, async (request) => {
      const id = guestIdOf(request.params)
      return repo.get(id) ?? emptyMetadata(id)
    })
    scope.put(path, async (request) => {
      const id = guestIdOf(request.params)
      return repo.save(id, parseMetadataInput(request.body), now())
    })
    scope.delete(path, async (request, reply) => {
      repo.remove(guestIdOf(request.params))
      return reply.status(204).send()
    })
  })
}
