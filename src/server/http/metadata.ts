// Guest metadata routes (spec 000 §7): a custom URL, a description and tags per guest key.
// GET of an unknown guest answers its empty record (as the reference does), never 404; DELETE is
// idempotent (204 either way); PUT merges the fields present. Unknown body fields are ignored.
// Saves are bounded (metadata/metadata-service.ts): ids shaped like a guest key, and only so many
// records of guests that are not in the live state.
import type { FastifyInstance } from 'fastify'
import { AppError } from '../../shared/model/errors.ts'
import { GUEST_ID_MAX, isSafeGuestId } from '../../shared/model/node-name.ts'
import { allowEmptyJsonBody, parseBody } from '../parse-body.ts'
import { guestKeyProblem, type MetadataService } from '../metadata/metadata-service.ts'
import { emptyMetadata, type GuestMetadataPatch } from '../store/metadata-repo.ts'
import { parseMetadataBatch, unknownGuestsError } from './metadata-batch.ts'
import { metadataInputSchema } from './metadata-input.ts'

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

/** Register GET/PUT/DELETE /api/guests/metadata[/:guestId] and POST /api/guests/metadata/batch. */
export function registerMetadataRoutes(
  app: FastifyInstance,
  repo: MetadataService,
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
    // One request for every changed guest (the Guest URLs tab): all saved, or none on a 400.
    scope.post('/api/guests/metadata/batch', { bodyLimit: 16 * 1024 * 1024 }, async (request) => {
      const result = repo.saveMany(parseMetadataBatch(request.body), now())
      if (result.refused) throw unknownGuestsError(result.refused)
      return { saved: Object.fromEntries(result.saved.map((record) => [record.id, record])) }
    })
    scope.get(path, async (request) => {
      const id = guestIdOf(request.params)
      return repo.get(id) ?? emptyMetadata(id)
    })
    scope.put(path, async (request) => {
      const id = guestIdOf(request.params)
      const shape = guestKeyProblem(id)
      if (shape) throw new AppError('FIELD_INVALID', { field: 'guestId', problem: shape })
      const result = repo.saveMany(new Map([[id, parseMetadataInput(request.body)]]), now())
      if (result.refused) {
        throw new AppError('FIELD_INVALID', { field: 'guestId', problem: result.refused.problem })
      }
      return result.saved[0]
    })
    scope.delete(path, async (request, reply) => {
      repo.remove(guestIdOf(request.params))
      return reply.status(204).send()
    })
  })
}
