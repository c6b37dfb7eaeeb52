// The batch save of guest metadata (issue 16 Guest URLs): every changed guest in one request.
// Every entry is checked before anything is written, and the writes share one transaction, so a
// bad entry saves nothing. Each bad entry gets its own line in the 400, naming guest and field.
import { AppError } from '../../shared/model/errors.ts'
import { GUEST_ID_MAX, isSafeGuestId } from '../../shared/model/node-name.ts'
import { guestKeyProblem, type UnknownGuestOverflow } from '../metadata/metadata-service.ts'
import type { GuestMetadataPatch } from '../store/metadata-repo.ts'
import { metadataInputSchema } from './metadata-input.ts'

/** An estate's worth of guests (spec: up to 100,000) in one batch. */
export const MAX_BATCH_ENTRIES = 100_000
/** Lines of a 400 beyond which the rest are only counted. */
const MAX_LISTED = 20

/** One bad entry: the guest id (as sent), the field and what is wrong with it. */
export interface BatchFailure {
  guestId: string
  field: string
  problem: string
}

/**
 * Parse `{ updates: { "<guestId>": { customUrl?, description?, tags? } } }`. Throws BODY_INVALID,
 * FIELD_INVALID for `updates` itself, or FIELD_INVALID listing every bad entry one per line.
 */
export function parseMetadataBatch(body: unknown): Map<string, GuestMetadataPatch> {
  if (!isObject(body)) throw new AppError('BODY_INVALID')
  const updates = body['updates']
  if (!isObject(updates)) {
    throw new AppError('FIELD_INVALID', {
      field: 'updates',
      problem: 'must be an object of guest id to metadata',
    })
  }
  const ids = Object.keys(updates)
  if (ids.length > MAX_BATCH_ENTRIES) {
    throw new AppError('FIELD_INVALID', {
      field: 'updates',
      problem: `must have at most ${MAX_BATCH_ENTRIES} entries`,
    })
  }
  const patches = new Map<string, GuestMetadataPatch>()
  const failures: BatchFailure[] = []
  for (const id of ids) {
    if (!isSafeGuestId(id)) {
      failures.push({
        guestId: id,
        field: 'id',
        problem: `must be 1-${GUEST_ID_MAX} letters, digits, spaces, punctuation or symbols`,
      })
      continue
    }
    const shape = guestKeyProblem(id)
    if (shape) {
      failures.push({ guestId: id, field: 'id', problem: shape })
      continue
    }
    const value = updates[id]
    if (!isObject(value)) {
      failures.push({ guestId: id, field: 'body', problem: 'must be a JSON object' })
      continue
    }
    const result = metadataInputSchema.safeParse(value)
    if (result.success) patches.set(id, result.data)
    else {
      const issue = result.error.issues[0]!
      failures.push({ guestId: id, field: issue.path.join('.') || 'body', problem: issue.message })
    }
  }
  if (failures.length > 0) throw batchError(failures)
  return patches
}

/** The 400 of a batch refused for adding too many records of unknown guests, naming them. */
export function unknownGuestsError(refused: UnknownGuestOverflow): AppError {
  return batchError(
    refused.ids.map((guestId) => ({ guestId, field: 'id', problem: refused.problem })),
  )
}

/** One 400 for every failure: the first names the field in `params`, the message lists them all. */
function batchError(failures: BatchFailure[]): AppError {
  const first = failures[0]!
  const err = new AppError('FIELD_INVALID', {
    field: fieldPath(first),
    problem: first.problem,
  })
  const lines = failures.slice(0, MAX_LISTED).map((f) => `${fieldPath(f)}: ${f.problem}.`)
  if (failures.length > MAX_LISTED) lines.push(`… and ${failures.length - MAX_LISTED} more.`)
  err.message = lines.join('\n')
  return err
}

/** `updates["lab-pve1-100"].customUrl`: JSON quoting keeps ids with dots or spaces unambiguous. */
function fieldPath(failure: BatchFailure): string {
  return `updates[${JSON.stringify(failure.guestId)}].${failure.field}`
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
