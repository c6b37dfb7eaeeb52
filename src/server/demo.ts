// Demo mode: start the simulator on loopback and register its clusters as configured nodes.
import { startSimulator, type Simulator } from './sim/index.ts'
import type { App } from './app.ts'
import type { DemoConfig } from './config.ts'

/** Start the simulated estate and point the app at it. */
export async function startDemo(demo: DemoConfig, app: App): Promise<Simulator> {
  const sim = await startSimulator({
    seed: demo.seed,
    clusters: demo.clusters,
    nodesPerCluster: demo.nodesPerCluster,
    guestsPerNode: demo.guestsPerNode,
    tickMs: demo.tickMs,
    host: '127.0.0.1',
    ...(demo.basePort
      ? { ports: Array.from({ length: demo.clusters }, (_, i) => demo.basePort + i) }
      : {}),
  })
  for (const cluster of sim.clusters) {
    // Upsert by name: the certificate and ports are new on every start, so the stored
    // fingerprint and URL are refreshed; the token is pinned by fingerprint, not verified by CA.
    app.nodes.upsert({
      type: 'pve',
      name: cluster.name,
      host: cluster.url,
      user: null,
      password: null,
      tokenName: cluster.tokenId,
      tokenValue: cluster.tokenSecret,
      fingerprint: cluster.fingerprint,
      verifySSL: false,
      monitorVMs: true,
      monitorContainers: true,
      monitorStorage: true,
      monitorBackups: true,
      source: 'demo',
    })
  }
  app.http.log.info(
    `demo: simulating ${sim.clusters.length} clusters, ${sim.guestCount()} guests on 127.0.0.1`,
  )
  return sim
}
