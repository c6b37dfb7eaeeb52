// Zod building blocks of the alert config validation, with the messages the API returns.
import { z } from 'zod'

/** A boolean, defaulted. */
export const bool = (fallback: boolean) =>
  z.boolean({ error: 'must be true or false' }).default(fallback)
/** A number within [min, max]. */
export const num = (min: number, max: number) =>
  z
    .number({ error: 'must be a number' })
    .min(min, `must be between ${min} and ${max}`)
    .max(max, `must be between ${min} and ${max}`)
/** A whole number within [min, max]. */
export const int = (min: number, max: number) => num(min, max).int('must be a whole number')
