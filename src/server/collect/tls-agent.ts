// One undici Agent per monitored host, in one of three TLS modes (reference/proxmox-api.md §1.4):
// system CAs, a pinned SHA-256 leaf fingerprint, or insecure for this host only. Never process-wide.
import { createSecureContext, type TLSSocket } from 'node:tls'
import { Agent, buildConnector } from 'undici'

/** Raised inside the connector when the leaf certificate is not the pinned one. */
export class TlsFingerprintMismatch extends Error {
  readonly actual: string
  constructor(actual: string) {
    super('TLS fingerprint mismatch')
    this.name = 'TlsFingerprintMismatch'
    this.actual = actual
  }
}

/** Normalises a fingerprint for comparison: no colons, lower case. */
export function normalizeFingerprint(value: string): string {
  return value.replace(/[:\s]/g, '').toLowerCase()
}

/** TLS settings of one host. */
export interface TlsOptions {
  verifySSL: boolean
  fingerprint?: string
  /** Keep-alive sockets to this host; also bounds parallel requests. */
  connections: number
}

/** Creates a keep-alive Agent for one host. A fingerprint takes precedence over verifySSL. */
export function createTlsAgent(options: TlsOptions): Agent {
  const base = { keepAliveTimeout: 30_000, connections: options.connections }
  // One context per host instead of one per connection: building it (root CAs, defaults) cost
  // more than the rest of a reconnect's client side at 100k guests, where idle sockets of the
  // detail pool are closed by the server between batches and reopened.
  const secureContext = createSecureContext()
  const pinned = options.fingerprint ? normalizeFingerprint(options.fingerprint) : ''
  if (pinned) {
    // Chain verification must be off: with a self-signed certificate Node rejects before
    // checkServerIdentity ever runs, so the pin is checked here, before any request is written.
    // No TLS session cache: on a resumed session getPeerCertificate() can come back empty, which
    // would read as a mismatch on every reconnect after the first (seen in our tests).
    const connect = buildConnector({
      rejectUnauthorized: false,
      maxCachedSessions: 0,
      secureContext,
    })
    return new Agent({
      ...base,
      connect(opts, callback) {
        connect(opts, (err, socket) => {
          if (err || !socket) return callback(err ?? new Error('no socket'), null)
          const actual = (socket as TLSSocket).getPeerCertificate().fingerprint256 ?? ''
          if (normalizeFingerprint(actual) !== pinned) {
            socket.destroy()
            return callback(new TlsFingerprintMismatch(actual), null)
          }
          callback(null, socket)
        })
      },
    })
  }
  if (options.verifySSL) return new Agent({ ...base, connect: { secureContext } })
  return new Agent({ ...base, connect: { rejectUnauthorized: false, secureContext } })
}
