// Where a webhook may point. Admins run receivers on their LAN, so private ranges (10/8, 172.16/12,
// 192.168/16, fc00::/7) are allowed; what is refused are the addresses that reach this machine or
// its cloud: link-local (169.254/16, fe80::/10, which hold the metadata services), the metadata
// names and addresses, unspecified and multicast addresses, and loopback unless
// WEBHOOK_ALLOW_LOOPBACK=true. Host names are checked on every address they resolve to, at the
// moment of connecting (safeLookup), so a name that rebinds to a refused address after the check
// is never connected to.
import dns from 'node:dns'
import net from 'node:net'

export interface UrlSafetyOptions {
  allowLoopback: boolean
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; error: string }

/** Error code of a connection safeLookup refused (not a DNS failure: never worth a retry). */
export const REFUSED_CODE = 'EWEBHOOKREFUSED'

const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata'])

/** Why an IPv4 address (dotted quad) is refused, or null when it is allowed. */
function refusedV4(ip: string, options: UrlSafetyOptions): string | null {
  const parts = ip.split('.').map(Number)
  const [a, b] = parts as [number, number, number, number]
  if (ip === '169.254.169.254' || ip === '100.100.100.200') return 'a cloud metadata address'
  if (a === 169 && b === 254) return 'a link-local address'
  if (a === 0) return 'an unspecified address'
  if (a === 127) return options.allowLoopback ? null : 'a loopback address'
  if (a >= 224) return 'a multicast or reserved address'
  return null
}

/** The 16 bytes of an IPv6 address (net.isIPv6 true), dotted IPv4 tails included. */
function v6Bytes(ip: string): number[] {
  let text = ip.replace(/%.*$/, '').toLowerCase()
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (tail) {
    const [a, b, c, d] = tail[1]!.split('.').map(Number) as [number, number, number, number]
    text =
      text.slice(0, tail.index) + ((a << 8) | b).toString(16) + ':' + ((c << 8) | d).toString(16)
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined]
  const left = head ? head.split(':') : []
  const right = rest ? rest.split(':') : []
  const groups =
    rest === undefined
      ? left
      : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
  return groups.flatMap((g) => {
    const n = parseInt(g || '0', 16)
    return [n >> 8, n & 0xff]
  })
}

function refusedV6(ip: string, options: UrlSafetyOptions): string | null {
  const b = v6Bytes(ip)
  const zeroUntil = (n: number) => b.slice(0, n).every((x) => x === 0)
  const v4 = () => b.slice(12).join('.')
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) forms
  // reach the IPv4 address they carry.
  if (zeroUntil(10) && b[10] === 0xff && b[11] === 0xff) return refusedV4(v4(), options)
  if (
    b[0] === 0 &&
    b[1] === 0x64 &&
    b[2] === 0xff &&
    b[3] === 0x9b &&
    b.slice(4, 12).every((x) => x === 0)
  )
    return refusedV4(v4(), options)
  if (zeroUntil(15) && b[15] === 0) return 'an unspecified address'
  if (zeroUntil(15) && b[15] === 1) return options.allowLoopback ? null : 'a loopback address'
  if (zeroUntil(12)) return refusedV4(v4(), options)
  if (ip.toLowerCase().replace(/^\[|\]$/g, '') === 'fd00:ec2::254')
    return 'a cloud metadata address'
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return 'a link-local address'
  if (b[0] === 0xff) return 'a multicast address'
  return null
}

/** Why an IP address is refused as a webhook target, or null when it is allowed. */
export function refusedAddress(ip: string, options: UrlSafetyOptions): string | null {
  if (net.isIPv4(ip)) return refusedV4(ip, options)
  if (net.isIPv6(ip)) return refusedV6(ip, options)
  return 'not an IP address'
}

/** A URL's host without IPv6 brackets or a trailing dot, lower-cased. */
export function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase()
}

/**
 * Check a URL without resolving names: http(s) with a host, and a host that is not a refused
 * address or name. The WHATWG parser already turns http://2130706433/ and http://0x7f.1/ into
 * 127.0.0.1, so the checks below see the canonical address.
 */
export function checkUrl(raw: string, options: UrlSafetyOptions): UrlCheck {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, error: 'not a valid URL' }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, error: 'only http and https URLs are allowed' }
  const host = bareHost(url)
  if (host === '') return { ok: false, error: 'the URL has no host' }
  if (METADATA_NAMES.has(host)) return { ok: false, error: 'a cloud metadata host is not allowed' }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    if (!options.allowLoopback) return { ok: false, error: 'a loopback address is not allowed' }
    return { ok: true, url }
  }
  if (net.isIP(host)) {
    const why = refusedAddress(host, options)
    if (why) return { ok: false, error: `${why} is not allowed` }
  }
  return { ok: true, url }
}

type LookupAll = (host: string) => Promise<Array<{ address: string; family: number }>>

const systemLookup: LookupAll = (host) => dns.promises.lookup(host, { all: true, verbatim: true })

/**
 * Check a URL and every address its host resolves to. A name that does not resolve passes (the
 * receiver may not exist yet); sending resolves again through safeLookup.
 */
export async function checkUrlResolved(
  raw: string,
  options: UrlSafetyOptions,
  lookup: LookupAll = systemLookup,
): Promise<UrlCheck> {
  const check = checkUrl(raw, options)
  if (!check.ok) return check
  const host = bareHost(check.url)
  if (net.isIP(host)) return check
  let addresses: Array<{ address: string }>
  try {
    addresses = await lookup(host)
  } catch {
    return check
  }
  for (const { address } of addresses) {
    const why = refusedAddress(address, options)
    if (why)
      return { ok: false, error: `${host} resolves to ${why} (${address}), which is not allowed` }
  }
  return check
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void

/**
 * A `lookup` for net.connect that resolves every address of a name and fails when any is refused:
 * the connection goes to the addresses that were checked, never to a later answer.
 */
export function safeLookup(options: UrlSafetyOptions) {
  return (hostname: string, opts: dns.LookupOptions, callback: LookupCallback): void => {
    const host = hostname.replace(/\.$/, '').toLowerCase()
    if (METADATA_NAMES.has(host)) {
      callback(
        Object.assign(new Error(`${host} is a cloud metadata host`), { code: REFUSED_CODE }),
        '',
      )
      return
    }
    dns.lookup(hostname, { all: true, verbatim: true, family: opts.family }, (err, addresses) => {
      if (err) return callback(err, '')
      for (const { address } of addresses) {
        const why = refusedAddress(address, options)
        if (why) {
          const error = new Error(`${host} resolves to ${why} (${address}), which is not allowed`)
          return callback(Object.assign(error, { code: REFUSED_CODE }), '')
        }
      }
      if (opts.all) return callback(null, addresses)
      const first = addresses[0]!
      callback(null, first.address, first.family)
    })
  }
}
