// Child process for E2E specs: starts a PVE cluster simulator and a PBS simulator on loopback and
// prints their connection details as one JSON line. Runs until killed.
import { startSimulator } from '../../../src/server/sim/index.ts'
import { startPbsSimulator } from '../../../src/server/sim/pbs/index.ts'

const pve = await startSimulator({
  seed: 21,
  clusters: 1,
  nodesPerCluster: 3,
  guestsPerNode: 15,
  tickMs: 1000,
  agentTimeoutMs: 300,
})
const pbs = await startPbsSimulator({ seed: 21, instances: 1, tickMs: 1000 })
const cluster = pve.clusters[0]!
const server = pbs.servers[0]!
console.log(
  JSON.stringify({
    pve: {
      name: cluster.name,
      url: cluster.url,
      nodeNames: cluster.nodeNames,
      tokenId: cluster.tokenId,
      tokenSecret: cluster.tokenSecret,
      fingerprint: cluster.fingerprint,
      guests: pve.guestCount(),
    },
    pbs: {
      name: server.name,
      url: server.url,
      tokenId: server.tokenId,
      tokenSecret: server.tokenSecret,
      fingerprint: server.fingerprint,
    },
  }),
)
const shutdown = (): void => {
  void Promise.all([pve.stop(), pbs.stop()]).then(() => process.exit(0))
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
