// A tiny PBS-like HTTPS server on loopback. A stand-in, because the PBS simulator
// (src/server/sim/pbs) is not part of the repository yet: it answers what the connection test and
// discovery read (/version, /admin/datastore, the web page) the way PBS does, token checked.
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { loadCertificate } from '../../../../src/server/sim/tls.ts'

export interface PbsLike {
  url: string
  port: number
  fingerprint: string
  tokenId: string
  tokenSecret: string
  stop(): Promise<void>
}

const PAGE = `<!DOCTYPE html>
<html><head><title>pbs-lab - Proxmox Backup Server</title>
<script type="text/javascript" src="/js/proxmox-backup-gui.js?ver=3.3.2"></script>
</head><body></body></html>`

/** Start it on `host` (127.x) and `port` (0 = ephemeral). */
export async function startPbsLike(
  options: { host?: string; port?: number } = {},
): Promise<PbsLike> {
  const certificate = await loadCertificate()
  const tokenId = 'pulse-monitor@pbs!pulse-token'
  const tokenSecret = 'b1c4e2d8-0f6a-4d3b-9e57-2a8c6f1d4b90'
  const server = https.createServer(
    { key: certificate.key, cert: certificate.cert },
    (req, res) => {
      const path = (req.url ?? '/').split('?')[0]
      if (path === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        res.end(PAGE)
        return
      }
      // PBS: errors carry the HTTP status and a plain-text message body.
      if (req.headers.authorization !== `PBSAPIToken=${tokenId}:${tokenSecret}`) {
        res.writeHead(401, { 'content-type': 'application/json;charset=UTF-8' })
        res.end('authentication failed - invalid credentials')
        return
      }
      const data =
        path === '/api2/json/version'
          ? { version: '3.3', release: '2', repoid: 'c4e2d8f0' }
          : path === '/api2/json/admin/datastore'
            ? [{ store: 'main' }, { store: 'offsite', comment: 'second copy' }]
            : undefined
      if (data === undefined) {
        res.writeHead(404, { 'content-type': 'application/json;charset=UTF-8' })
        res.end('Path not found.')
        return
      }
      res.writeHead(200, { 'content-type': 'application/json;charset=UTF-8' })
      res.end(JSON.stringify({ data }))
    },
  )
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  return {
    url: `https://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    fingerprint: certificate.fingerprint,
    tokenId,
    tokenSecret,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
