// Subnets for discovery scans. The network rule: 'auto' means loopback 127.0.0.1/32 only (never a
// range guessed from the machine's interfaces), and a range outside 127.0.0.0/8 is scanned only
// when an administrator typed it. At most a /22 (1024 addresses) per scan.
import { AppError } from '../../shared/model/errors.ts'

/** What 'auto' scans: this machine's loopback address, nothing else. */
export const AUTO_SUBNET = '127.0.0.1/32'
/** Largest scan: a /22. */
export const MIN_PREFIX = 22

/** An IPv4 range: first address as an unsigned 32-bit number, prefix length. */
export interface Subnet {
  /** Normalised, e.g. 127.0.0.0/30. */
  cidr: string
  network: number
  prefix: number
}

/** What to scan and whether an administrator named it (which lifts the loopback limit). */
export interface ScanTarget {
  subnet: Subnet
  explicit: boolean
}

const invalid = (problem: string) => new AppError('FIELD_INVALID', { field: 'subnet', problem })

function parseIp(text: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)
  if (!m) return null
  const octets = m.slice(1).map(Number)
  if (octets.some((o) => o > 255)) return null
  return octets.reduce((acc, o) => acc * 256 + o, 0)
}

/** Dotted quad of an unsigned 32-bit address. */
export function formatIp(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.')
}

/** Parse `a.b.c.d/n` (or a bare address, /32); FIELD_INVALID on subnet when bad or over a /22. */
export function parseSubnet(text: string): Subnet {
  const m = /^([0-9.]+)(?:\/(\d{1,2}))?$/.exec(text.trim())
  const ip = m ? parseIp(m[1]!) : null
  const prefix = m?.[2] === undefined ? 32 : Number(m[2])
  if (ip === null || prefix > 32) {
    throw invalid('must be "auto" or an IPv4 subnet in CIDR form, like 127.0.0.0/24')
  }
  if (prefix < MIN_PREFIX) {
    throw invalid(`/${prefix} is too large: scan at most a /${MIN_PREFIX} (1024 addresses)`)
  }
  const size = 2 ** (32 - prefix)
  const network = Math.floor(ip / size) * size
  return { cidr: `${formatIp(network)}/${prefix}`, network, prefix }
}

/** True when the whole range lies in 127.0.0.0/8 (a /22 or smaller never straddles a /8). */
export function isLoopback(subnet: Subnet): boolean {
  return Math.floor(subnet.network / 2 ** 24) === 127
}

/**
 * The scan target for a requested subnet: 'auto' (or nothing stored) is loopback only; a typed
 * CIDR is explicit. `fromAdmin` says whether the text came from an administrator (the discover
 * call or the stored setting), not from a default or a guess.
 */
export function resolveTarget(requested: string, fromAdmin: boolean): ScanTarget {
  const text = requested.trim()
  if (text === '' || text.toLowerCase() === 'auto') {
    return { subnet: parseSubnet(AUTO_SUBNET), explicit: false }
  }
  return { subnet: parseSubnet(text), explicit: fromAdmin }
}

/** Refuse a non-loopback range that no administrator typed (the network rule). */
export function assertScannable(target: ScanTarget): void {
  if (!target.explicit && !isLoopback(target.subnet)) {
    throw invalid(
      `${target.subnet.cidr} is outside 127.0.0.0/8: only a subnet an administrator types is scanned`,
    )
  }
}

/** Addresses to probe: all of a /31 or /32, else without the network and broadcast addresses. */
export function hostAddresses(subnet: Subnet): string[] {
  const size = 2 ** (32 - subnet.prefix)
  const skipEnds = size > 2
  const out: string[] = []
  for (let i = skipEnds ? 1 : 0; i < (skipEnds ? size - 1 : size); i++) {
    out.push(formatIp(subnet.network + i))
  }
  return out
}
