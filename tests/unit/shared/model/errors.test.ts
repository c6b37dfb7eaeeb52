// The error catalogue's meta-test (STYLE.md Errors): every code has a status and a message, and
// the JSON round trip keeps the code.
import { describe, expect, it } from 'vitest'
import { AppError, ERRORS, type ErrorCode } from '../../../../src/shared/model/errors.ts'

const CODES = Object.keys(ERRORS) as ErrorCode[]

describe('error catalogue', () => {
  it.each(CODES)('%s has an HTTP error status and a message', (code) => {
    const entry = ERRORS[code]
    expect(entry.status).toBeGreaterThanOrEqual(400)
    expect(entry.status).toBeLessThan(600)
    expect(entry.message.trim().length).toBeGreaterThan(0)
  })

  it.each(CODES)('%s survives toJSON and fromJSON with its code and status', (code) => {
    const original = new AppError(code, { field: 'f', problem: 'p', minutes: 3 })
    const rebuilt = AppError.fromJSON(original.toJSON())
    expect(rebuilt.code).toBe(code)
    expect(rebuilt.status).toBe(ERRORS[code].status)
    expect(rebuilt.message).toBe(original.message)
  })

  it('codes are written in UPPER_SNAKE_CASE', () => {
    for (const code of CODES) expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/)
  })

  it('turns an unknown code into INTERNAL, keeping the server text', () => {
    const err = AppError.fromJSON({ code: 'NO_SUCH_CODE', message: 'Something new.' })
    expect(err.code).toBe('INTERNAL')
    expect(err.message).toBe('Something new.')
  })
})
