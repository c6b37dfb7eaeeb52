// The one set of coercion helpers: the lenient family reads Proxmox's Perl-typed JSON, the strict
// family our own typed wire values. Where the old local copies differed, these cases pin the
// reading each caller now gets.
import { describe, expect, it } from 'vitest'
import {
  finiteOr,
  isRecord,
  textOr,
  toBool,
  toNumber,
  toOptionalBool,
  toOptionalNumber,
  toOptionalString,
} from '../../../../src/shared/model/coerce.ts'

describe('lenient coercion (Proxmox JSON)', () => {
  it('reads numbers from numbers and numeric strings, booleans as 1/0, else the fallback', () => {
    expect(toNumber(12.5)).toBe(12.5)
    expect(toNumber(' 42 ')).toBe(42)
    expect(toNumber(true)).toBe(1)
    expect(toNumber(false, 7)).toBe(0)
    expect(toNumber('N/A', 7)).toBe(7)
    expect(toNumber('', 7)).toBe(7)
    expect(toNumber(Infinity, 7)).toBe(7)
    expect(toOptionalNumber(null)).toBeUndefined()
  })

  it('reads Perl booleans and leaves anything else to the fallback', () => {
    expect([1, '1', true, 'TRUE'].map((v) => toBool(v))).toEqual([true, true, true, true])
    expect([0, '0', false, 'false'].map((v) => toBool(v, true))).toEqual([
      false,
      false,
      false,
      false,
    ])
    expect(toBool(undefined, true)).toBe(true)
    expect(toBool('yes')).toBe(false)
    expect(toOptionalBool(2)).toBeUndefined()
  })

  it('reads non-empty strings and stringifies numeric ids', () => {
    expect(toOptionalString('pve1')).toBe('pve1')
    expect(toOptionalString('')).toBeUndefined()
    expect(toOptionalString(101)).toBe('101')
  })
})

describe('strict coercion (our own wire values)', () => {
  it('takes only finite numbers, never parses strings, and returns the given fallback', () => {
    expect(finiteOr(3, 0)).toBe(3)
    expect(finiteOr('3', 0)).toBe(0)
    expect(finiteOr(NaN, null)).toBeNull()
    expect(Number.isNaN(finiteOr(undefined, NaN))).toBe(true)
  })

  it('takes only strings', () => {
    expect(textOr('a')).toBe('a')
    expect(textOr(5)).toBe('')
    expect(textOr(null, '-')).toBe('-')
  })

  it('treats arrays and null as not a record', () => {
    expect(isRecord({})).toBe(true)
    expect(isRecord([])).toBe(false)
    expect(isRecord(null)).toBe(false)
  })
})
