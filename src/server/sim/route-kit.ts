// What every route module needs: the cluster, the response cache, PVE-style errors and the
// parameter checks pve-http-server performs before a handler runs.

import type { SimClusterModel, SimGuest } from './model.ts'
import type { SimCertificate } from './tls.ts'
import type { Slicer } from './slices.ts'

/** An API failure: the status, the reason phrase PVE puts in the status line, 400 `errors`. */
export class PveError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    readonly errors?: Record<string, string>,
  ) {
    super(reason)
  }
}

/** A reply sent after a delay (a slow or hanging guest agent); `reply` may throw a PveError. */
export interface DelayedReply {
  delayMs: number
  reply(): Buffer
}

/** One request as a route sees it; `local` is the node whose endpoint received it. */
export interface RouteContext {
  match: RegExpExecArray
  query: URLSearchParams
  local: number
}

/** A GET route: its path pattern, the query parameters it accepts, its handler. */
export interface Route {
  pattern: RegExp
  params: readonly string[]
  handle(ctx: RouteContext): Buffer | DelayedReply | Promise<Buffer>
}

/** Shared helpers handed to every route module. */
export interface RouteKit {
  cluster: SimClusterModel
  certificate: SimCertificate
  agentTimeoutMs: number
  /** Serialises `{"data":...}` once per model revision and key. */
  cached(key: string, build: () => unknown): Buffer
  /**
   * Like cached, for a list too large to build and serialise in one go (slices.ts); requests for
   * the same key while it is being built share it.
   */
  cachedSliced(key: string, build: (slicer: Slicer) => Promise<readonly unknown[]>): Promise<Buffer>
}

/**
 * Resolves the {node} of a /nodes/{node}/... path: an unknown name fails like a failed hostname
 * lookup (500); an offline member cannot be proxied to, AnyEvent's pseudo-status 595.
 */
export function resolveNode(cluster: SimClusterModel, raw: string | undefined): number {
  const name = decodeURIComponent(raw ?? '')
  const index = cluster.nodes.findIndex((n) => n.name === name)
  if (index < 0) {
    throw new PveError(
      500,
      `hostname lookup '${name}' failed - failed to get address info for: ${name}: Name or service not known`,
    )
  }
  if (!(cluster.nodes[index]?.online ?? false)) throw new PveError(595, 'Connection refused')
  return index
}

/** Finds a guest whose config lives on `node`; anything else fails as the missing config file. */
export function resolveGuest(
  cluster: SimClusterModel,
  node: number,
  type: 'qemu' | 'lxc',
  rawVmid: string | undefined,
): SimGuest {
  const vmid = parseInteger('vmid', rawVmid ?? '')
  const guest = cluster.byVmid.get(vmid)
  if (guest === undefined || guest.type !== type || guest.node !== node) {
    const dir = type === 'qemu' ? 'qemu-server' : 'lxc'
    const nodeName = cluster.nodes[node]?.name ?? ''
    throw new PveError(
      500,
      `Configuration file 'nodes/${nodeName}/${dir}/${vmid}.conf' does not exist`,
    )
  }
  return guest
}

/** Parses an integer parameter or fails parameter verification like PVE. */
export function parseInteger(name: string, raw: string): number {
  if (!/^-?\d+$/.test(raw)) {
    throw new PveError(400, 'Parameter verification failed.', {
      [name]: `type check ('integer') failed - got '${raw}'`,
    })
  }
  return Number(raw)
}

/** Reads an optional integer query parameter. */
export function optionalInteger(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name)
  return raw === null ? undefined : parseInteger(name, raw)
}

/** Reads an optional boolean parameter: Perl accepts 0/1 (and a few spellings). */
export function optionalBoolean(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name)
  if (raw === null) return undefined
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false
  throw new PveError(400, 'Parameter verification failed.', {
    [name]: `type check ('boolean') failed - got '${raw}'`,
  })
}

/** Reads an optional parameter restricted to an enumeration. */
export function optionalEnum<T extends string>(
  query: URLSearchParams,
  name: string,
  values: readonly T[],
): T | undefined {
  const raw = query.get(name)
  if (raw === null) return undefined
  if (!(values as readonly string[]).includes(raw)) {
    throw new PveError(400, 'Parameter verification failed.', {
      [name]: `value '${raw}' does not have a value in the enumeration '${values.join(', ')}'`,
    })
  }
  return raw as T
}

/** Serialises `{"data":...}` plus PVE's `total` for paged lists. */
export function wrapWithTotal(data: unknown, total: number): Buffer {
  return Buffer.from(JSON.stringify({ data, total }))
}
