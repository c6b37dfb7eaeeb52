// The simulator's TLS identity: one self-signed certificate per process, shared by every simulated
// cluster (key generation is the slow part of starting a simulator).

import { X509Certificate } from 'node:crypto'
import { generate } from 'selfsigned'

/** PEM key and certificate plus the SHA-256 fingerprint in the GUI's format (AA:BB:...). */
export interface SimCertificate {
  key: string
  cert: string
  fingerprint: string
}

let pending: Promise<SimCertificate> | undefined

/** Returns the process-wide certificate, generating it on first use. */
export function loadCertificate(): Promise<SimCertificate> {
  pending ??= createCertificate()
  return pending
}

async function createCertificate(): Promise<SimCertificate> {
  const now = Date.now()
  // RSA 2048 with SHA-256, like pveproxy's default node certificate.
  const pems = await generate([{ name: 'commonName', value: 'pve-simulator.localdomain' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 86_400_000),
    notAfterDate: new Date(now + 2 * 365 * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  })
  // Node's own fingerprint256 is exactly what clients see in getPeerCertificate().
  const fingerprint = new X509Certificate(pems.cert).fingerprint256
  return { key: pems.private, cert: pems.cert, fingerprint }
}
