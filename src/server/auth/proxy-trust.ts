// Which peers are reverse proxies whose forwarded host we believe (TRUSTED_PROXIES), and the
// public URL the app is reached at (PULSE_PUBLIC_URL). A proxy that rewrites Host but keeps the
// browser's Origin (Vite's dev proxy, many nginx setups) would otherwise fail the /ws origin check.
import net from 'node:net'

/** Trusted by default: a proxy on the same machine, the usual setup. */
export const DEFAULT_TRUSTED_PROXIES: readonly string[] = ['127.0.0.0/8', '::1/128']

/** A peer-address test built from TRUSTED_PROXIES entries. */
export type ProxyTrust = (peer: string | undefined) => boolean

/** '::ffff:10.0.0.1' → '10.0.0.1': Node reports IPv4 peers of a dual-stack socket that way. */
function unmapIpv4(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return mapped ? mapped[1]! : address
}

/** Split one entry into address and prefix length, or null when it is neither an IP nor a CIDR. */
function parseEntry(entry: string): { address: string; prefix: number; family: 4 | 6 } | null {
  const [rawAddress = '', rawPrefix, ...rest] = entry.split('/')
  if (rest.length > 0) return null
  const address = unmapIpv4(rawAddress)
  const family = net.isIPv4(address) ? 4 : net.isIPv6(address) ? 6 : 0
  if (family === 0) return null
  const max = family === 4 ? 32 : 128
  const prefix = rawPrefix === undefined ? max : Number(rawPrefix)
  if (!/^\d+$/.test(rawPrefix ?? String(max)) || prefix > max) return null
  return { address, prefix, family }
}

/**
 * Read TRUSTED_PROXIES: comma-separated IPs or CIDRs; unset or blank means loopback only, 'none'
 * trusts no peer. Throws naming the variable on an entry that is neither.
 */
export function readTrustedProxies(raw: string | undefined): string[] {
  const text = (raw ?? '').trim()
  if (text === '') return [...DEFAULT_TRUSTED_PROXIES]
  if (text.toLowerCase() === 'none') return []
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  for (const entry of entries) {
    if (!parseEntry(entry)) {
      throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR like 10.0.0.0/8`)
    }
  }
  return entries
}

/** Build the peer test once (a BlockList answers in constant time per family). */
export function createProxyTrust(entries: readonly string[]): ProxyTrust {
  if (entries.length === 0) return () => false
  const list = new net.BlockList()
  for (const entry of entries) {
    const parsed = parseEntry(entry)
    if (!parsed) continue
    const type = parsed.family === 4 ? 'ipv4' : 'ipv6'
    list.addSubnet(parsed.address, parsed.prefix, type)
  }
  return (peer) => {
    if (!peer) return false
    const address = unmapIpv4(peer)
    const type = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null
    return type !== null && list.check(address, type)
  }
}

/** Read PULSE_PUBLIC_URL: the origin of an http(s) URL, or null when unset. */
export function readPublicUrl(raw: string | undefined): string | null {
  const text = (raw ?? '').trim()
  if (text === '') return null
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new Error(`PULSE_PUBLIC_URL: "${text}" is not a URL like https://pulse.example.com`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`PULSE_PUBLIC_URL: "${text}" must start with http:// or https://`)
  }
  return url.origin
}

/**
 * The host the client asked the proxy for: X-Forwarded-Host, else the host of a standard
 * Forwarded header; the first (client-facing) value of a chain. Undefined when neither is sent.
 */
export function forwardedHost(headers: Record<string, string | string[] | undefined>) {
  const first = (value: string | string[] | undefined) =>
    (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim()
  const xfh = first(headers['x-forwarded-host'])
  if (xfh) return xfh
  const forwarded = first(headers.forwarded)
  const match = forwarded ? /(?:^|;)\s*host="?([^";]+)"?/i.exec(forwarded) : null
  return match?.[1]
}
