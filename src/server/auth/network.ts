// Client address classification for the security status (private network or public access).
import net from 'node:net'

/** True for loopback, RFC 1918, link-local, CGNAT (100.64/10) and IPv6 ULA/link-local addresses. */
export function isPrivateAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  const address = mapped ? mapped[1]! : ip
  if (net.isIPv4(address)) {
    const [a = 0, b = 0] = address.split('.').map(Number)
    return (
      a === 10 ||
      a === 127 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    )
  }
  if (net.isIPv6(address)) {
    const lower = address.toLowerCase()
    return lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower)
  }
  return false
}
