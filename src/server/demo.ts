// Demo mode: start the simulator in its own process on loopback (sim/demo-child.ts) and register
// its clusters as configured nodes. A separate process, not a worker thread: at 100k guests the
// simulator renders tens of MB per cycle and its heap and GC pauses must not count as the server's.
import type { App } from './app.ts'
import type { DemoConfig } from './config.ts'
import { seedDemoAlertConfig } from './demo-alerts.ts'
import type { DemoSimEndpoint } from './sim/demo-child.ts'
import { startSimProcess } from './sim/sim-process.ts'
import type { NewNode } from './store/nodes-repo.ts'

/**
 * Nice levels the simulator runs below the server: it stands in for machines of their own, and on
 * a small machine the server's loop (the dashboard, the API) goes first (sim/priority.ts).
 */
export const DEMO_SIM_NICE = 10

/** The running simulators of the demo. */
export interface DemoSimulators {
  /** Guests the simulated clusters hold at start. */
  guests: number
  /** The simulator's process. */
  pid: number
  /** Store the simulated endpoints as configured nodes (again: a collector that takes over). */
  register(): void
  stop(): Promise<void>
}

/**
 * Start the simulated estate (PVE clusters and a backup server) and point the app at it.
 * `execArgv` of the simulator process defaults to the server's own (sim-process.ts).
 */
export async function startDemo(
  demo: DemoConfig,
  app: App,
  options: { execArgv?: string[]; register?: boolean } = {},
): Promise<DemoSimulators> {
  const sim = await startSimProcess({ ...demo, nice: DEMO_SIM_NICE }, options.execArgv)
  // Upsert by name: the certificate and ports are new on every start, so the stored fingerprint
  // and URL are refreshed; the token is pinned by fingerprint, not verified by CA.
  const register = () =>
    app.nodes.upsertAll([
      ...sim.pve.map((cluster) => demoNode('pve', cluster)),
      // The backup server holds backups of the first cluster's guests.
      ...sim.pbs.map((server) => demoNode('pbs', server)),
    ])
  // A collector registers only while active: collectors of a group share the nodes table.
  if (options.register !== false) {
    register()
    // First start only: a rule that shows "not backed up" alerts (demo-alerts.ts).
    seedDemoAlertConfig(app)
  }
  app.http.log.info(
    `demo: simulating ${sim.pve.length} clusters, ${sim.guests} guests and ` +
      `${sim.pbs.length} backup servers on 127.0.0.1 (simulator process ${sim.pid})`,
  )
  sim.onExit((reason) => app.http.log.error(`demo: the simulator process exited (${reason})`))
  return { guests: sim.guests, pid: sim.pid, register, stop: () => sim.stop() }
}

/** A simulated endpoint as a configured node (token auth, pinned fingerprint). */
function demoNode(type: 'pve' | 'pbs', endpoint: DemoSimEndpoint): NewNode {
  return {
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
  }
}
