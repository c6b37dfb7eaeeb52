// Query-parameter checks with PBS's wording: unknown or malformed parameters are a 400
// "parameter verification failed" with the message as a plain-text body.

/** An HTTP error the router turns into a PBS error reply. */
export class SimHttpError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

/** 400 for one bad parameter. */
export function badParam(name: string, problem: string): SimHttpError {
  return new SimHttpError(400, `parameter verification failed - '${name}': ${problem}`)
}

/** Throws 400 for any parameter the route does not declare (PBS schemas allow no extras). */
export function rejectUnknown(query: URLSearchParams, allowed: readonly string[]): void {
  for (const key of query.keys()) {
    if (!allowed.includes(key)) throw badParam(key, 'schema does not allow additional properties')
  }
}

/** PBS booleans in a query: 1/0, true/false, yes/no, on/off. */
export function readBool(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name)
  if (raw === null) return undefined
  const value = raw.toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(value)) return true
  if (['0', 'false', 'no', 'off'].includes(value)) return false
  throw badParam(name, 'unable to parse boolean')
}

/** An integer in [min, max], or undefined when absent. */
export function readInt(
  query: URLSearchParams,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const raw = query.get(name)
  if (raw === null) return undefined
  if (!/^-?\d+$/.test(raw)) throw badParam(name, 'expected integer value')
  const value = Number(raw)
  if (value < min) throw badParam(name, `value must have a minimum value of ${min}`)
  if (value > max) throw badParam(name, `value must have a maximum value of ${max}`)
  return value
}

/** A backup namespace ('' = root): up to 7 levels of [A-Za-z0-9_][A-Za-z0-9._-]* names. */
export function readNamespace(query: URLSearchParams, name: string): string {
  const raw = query.get(name) ?? ''
  if (raw === '') return ''
  const parts = raw.split('/')
  if (parts.length > 7) throw badParam(name, 'namespace too deep (max depth is 7)')
  if (!parts.every((p) => /^[A-Za-z0-9_][A-Za-z0-9._-]{0,31}$/.test(p))) {
    throw badParam(name, 'value does not match the regex pattern')
  }
  return raw
}

/** One of `values`, or undefined when absent. */
export function readEnum<T extends string>(
  query: URLSearchParams,
  name: string,
  values: readonly T[],
): T | undefined {
  const raw = query.get(name)
  if (raw === null) return undefined
  if (!(values as readonly string[]).includes(raw)) {
    throw badParam(name, `value '${raw}' is not defined in the enumeration.`)
  }
  return raw as T
}
