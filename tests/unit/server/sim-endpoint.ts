// A simulated cluster as the poller's endpoint (token auth, its self-signed certificate pinned).
import type { MonitoredEndpoint } from '../../../src/server/collect/poller.ts'
import type { SimCluster } from '../../../src/server/sim/index.ts'

export function simEndpoint(cluster: SimCluster, id = 'sim-0'): MonitoredEndpoint {
  return {
    id,
    name: cluster.name,
    type: 'pve',
    host: cluster.url,
    auth: { kind: 'token', tokenId: cluster.tokenId, secret: cluster.tokenSecret },
    verifySSL: false,
    fingerprint: cluster.fingerprint,
  }
}
