// Shared copies of the strings and small string lists that thousands of backup records repeat
// (a guest's name in every one of its backups' notes, a PBS snapshot's file names), so the
// collector's records hold one copy each instead of one per record (issue 27: server memory).
// Measured on 200,000 PBS records shaped like the simulator's: 835 bytes each before, 542 after
// sharing the file lists and the repeated strings (bench/README.md, "What the server holds").
//
// Bounded: past `limit` entries the tables start again empty, so a hostile answer of unique
// strings costs one Map insert per value and never grows the tables beyond the limit.

/** Default number of entries each table keeps before it starts again. */
export const INTERN_LIMIT = 50_000

export interface Interner {
  /** The shared copy of `value` (itself the first time it is seen). */
  string(value: string): string
  string(value: string | undefined): string | undefined
  /** The shared copy of a list equal element by element (itself the first time). */
  list(values: string[]): string[]
  /** Entries held now (strings and lists). */
  readonly size: number
}

export function createInterner(limit = INTERN_LIMIT): Interner {
  const strings = new Map<string, string>()
  const lists = new Map<string, string[]>()
  const one = (value: string): string => {
    const known = strings.get(value)
    if (known !== undefined) return known
    if (strings.size >= limit) strings.clear()
    strings.set(value, value)
    return value
  }
  return {
    get size() {
      return strings.size + lists.size
    },
    string: ((value: string | undefined) =>
      value === undefined ? undefined : one(value)) as Interner['string'],
    list(values) {
      if (values.length === 0) return values
      // JSON keeps the boundaries: ['a', 'b'] and ['a\u0000b'] are different keys.
      const key = JSON.stringify(values)
      const known = lists.get(key)
      if (known !== undefined) return known
      if (lists.size >= limit) lists.clear()
      const shared = values.map(one)
      lists.set(key, shared)
      return shared
    },
  }
}

/**
 * Joins the parts with '-' into one flat string. A template literal of several parts is held by
 * V8 as a tree of concatenation cells (32 bytes each) until something reads it whole: an id of
 * six parts kept that way costs about 350 bytes instead of its length.
 */
export function flatId(...parts: Array<string | number>): string {
  return parts.join('-')
}

/** An interner that shares nothing (the mappers' default: tests and one-off reads). */
export const NO_INTERN: Interner = {
  size: 0,
  string: ((value: string | undefined) => value) as Interner['string'],
  list: (values) => values,
}
