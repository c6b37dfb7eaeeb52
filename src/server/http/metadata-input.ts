// The fields of a guest metadata save, shared by the per-guest PUT and the batch save.
import { z } from 'zod'
import { isHttpUrl } from '../parse-body.ts'

const MAX_URL = 2048
const MAX_DESCRIPTION = 1000
const MAX_TAGS = 50
const MAX_TAG = 100

const clearable = (schema: z.ZodString) =>
  schema
    .nullable()
    .optional()
    .transform((v) => (v === null ? '' : v))

/** customUrl and description: null or '' clears them; tags replace the stored list. */
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
