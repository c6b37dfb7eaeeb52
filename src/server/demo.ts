// Demo mode: start the simulator on loopback and register its clusters as configured nodes.
import { startSimulator, type Simulator } from './sim/index.ts'
import { startPbsSimulator, type PbsSimulator } from './sim/pbs/index.ts'
import type { App } from './app.ts'
import type { DemoConfig } from './config.ts'

/** The running simulators of the demo. */
export interface DemoSimulators {
  pve: Simulator
  pbs: PbsSimulator | null
  stop(): Promise<void>
}

/** Start the simulated estate (PVE clusters and a backup server) and point the app at it. */
export async function startDemo(demo: DemoConfig, app: App): Promise<DemoSimulators> {
  const sim = await startSimulator({
    seed: demo.seed,
    clusters: demo.clusters,
    nodesPerCluster: demo.nodesPerCluster,
    guestsPerNode: demo.guestsPerNode,
    tickMs: demo.tickMs,
    host: '127.0.0.1',
    // The demo shows a Ceph warning from the start (it heals after 20 minutes).
    cephOsdDownAtStart: true,
    ...(demo.basePort
      ? { ports: Array.from({ length: demo.clusters }, (_, i) => demo.basePort + i) }
      : {}),
  })
  // Upsert by name: the certificate and ports are new on every start, so the stored fingerprint
  // and URL are refreshed; the token is pinned by fingerprint, not verified by CA.
  for (const cluster of sim.clusters) registerDemoNode(app, 'pve', cluster)
  // The backup server holds backups of the first cluster's guests.
  const first = sim.clusters[0]
  const pbs =
    demo.pbsInstances > 0
      ? await startPbsSimulator({
          seed: demo.seed,
          instances: demo.pbsInstances,
          tickMs: demo.tickMs,
          host: '127.0.0.1',
          guests: first ? sim.guestsOf(first.name) : [],
        })
      : null
  for (const server of pbs?.servers ?? []) registerDemoNode(app, 'pbs', server)
  app.http.log.info(
    `demo: simulating ${sim.clusters.length} clusters, ${sim.guestCount()} guests and ` +
      `${pbs?.servers.length ?? 0} backup servers on 127.0.0.1`,
  )
  return {
    pve: sim,
    pbs,
    stop: async () => {
      await Promise.all([sim.stop(), pbs?.stop()])
    },
  }
}

/** Store a simulated endpoint as a configured node (token auth, pinned fingerprint). */
function registerDemoNode(
  app: App,
  type: 'pve' | 'pbs',
  endpoint: {
    name: string
    url: string
    tokenId: string
    tokenSecret: string
    fingerprint: string
  },
): void {
  app.nodes.upsert({
    type,
    name: endpoint.name,
    host: endpoint.url,
    user: null,
    password: null,
    tokenName: endpoint.tokenId,
    tokenValue: endpoint.tokenSecret,
    fingerprint: endpoint.fingerprint,
    verifySSL: false,
    monitorVMs: true,
    monitorContainers: true,
    monitorStorage: true,
    monitorBackups: true,
    source: 'demo',
  })
}
