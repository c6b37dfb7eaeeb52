// Entry of the demo's simulator process (demo.ts forks it): builds and serves the simulated PVE
// clusters and backup servers here, so their rendering, TLS and ticks never block the server's
// event loop. Speaks a small IPC protocol with its parent; exits when the parent goes away.
import { startSimulator, type Simulator } from './index.ts'
import { startPbsSimulator, type PbsSimulator } from './pbs/index.ts'
import { lowerPriority } from './priority.ts'

/** What the parent asks for: the demo's sizes, seed, ticks and ports. */
export interface DemoSimOptions {
  seed: number
  clusters: number
  nodesPerCluster: number
  guestsPerNode: number
  tickMs: number
  /** 0: ephemeral ports. */
  basePort: number
  pbsInstances: number
  /** One Ceph OSD down for the first 20 minutes (default true: the demo shows a warning). */
  cephOsdDownAtStart?: boolean
  /** Scripted alert conditions (SimulatorOptions.alertScenarios; default true: the demo's alerts). */
  alertScenarios?: boolean
  /** SimulatorOptions.backupKeep (0 or absent: each cluster's own). */
  backupKeep?: number
  /** Nice levels the simulator's threads are lowered by before it builds (priority.ts; 0: none). */
  nice?: number
}

/** One simulated endpoint to register as a configured node. */
export interface DemoSimEndpoint {
  name: string
  url: string
  tokenId: string
  tokenSecret: string
  fingerprint: string
}

/** Messages from the parent. */
export type DemoSimRequest =
  | { type: 'start'; options: DemoSimOptions }
  | { type: 'tick' }
  | { type: 'count' }
  | { type: 'stop' }

/** Messages to the parent. */
export type DemoSimReply =
  | { type: 'ready'; pve: DemoSimEndpoint[]; pbs: DemoSimEndpoint[]; guests: number }
  | { type: 'ticked'; requests: number }
  | { type: 'counted'; requests: number }
  | { type: 'error'; message: string }
  | { type: 'stopped' }

/** Start the PVE simulator and, if asked, the PBS one backing up the first cluster's guests. */
export async function startDemoSimulators(
  options: DemoSimOptions,
): Promise<{ pve: Simulator; pbs: PbsSimulator | null }> {
  const pve = await startSimulator({
    seed: options.seed,
    clusters: options.clusters,
    nodesPerCluster: options.nodesPerCluster,
    guestsPerNode: options.guestsPerNode,
    tickMs: options.tickMs,
    host: '127.0.0.1',
    // The demo shows a Ceph warning from the start (it heals after 20 minutes).
    cephOsdDownAtStart: options.cephOsdDownAtStart ?? true,
    alertScenarios: options.alertScenarios ?? true,
    ...(options.backupKeep ? { backupKeep: options.backupKeep } : {}),
    ...(options.basePort
      ? { ports: Array.from({ length: options.clusters }, (_, i) => options.basePort + i) }
      : {}),
  })
  const first = pve.clusters[0]
  try {
    const pbs =
      options.pbsInstances > 0
        ? await startPbsSimulator({
            seed: options.seed,
            instances: options.pbsInstances,
            tickMs: options.tickMs,
            host: '127.0.0.1',
            guests: first ? pve.guestsOf(first.name) : [],
          })
        : null
    return { pve, pbs }
  } catch (err) {
    await pve.stop()
    throw err
  }
}

const pick = (e: DemoSimEndpoint): DemoSimEndpoint => ({
  name: e.name,
  url: e.url,
  tokenId: e.tokenId,
  tokenSecret: e.tokenSecret,
  fingerprint: e.fingerprint,
})

function serve(): void {
  let running: Promise<{ pve: Simulator; pbs: PbsSimulator | null }> | undefined
  const reply = (message: DemoSimReply) => process.send?.(message)
  const stop = async () => {
    const sims = await running?.catch(() => undefined)
    await Promise.all([sims?.pve.stop(), sims?.pbs?.stop()])
  }
  process.on('message', (message: DemoSimRequest) => {
    if (message.type === 'start' && !running) {
      if (message.options.nice) lowerPriority(message.options.nice)
      running = startDemoSimulators(message.options)
      running.then(
        ({ pve, pbs }) =>
          reply({
            type: 'ready',
            pve: pve.clusters.map(pick),
            pbs: (pbs?.servers ?? []).map(pick),
            guests: pve.guestCount(),
          }),
        (err: unknown) =>
          reply({ type: 'error', message: err instanceof Error ? err.message : String(err) }),
      )
    } else if (message.type === 'tick') {
      void running?.then(({ pve, pbs }) => {
        pve.tick()
        pbs?.tick()
        reply({ type: 'ticked', requests: pve.requestCount() })
      })
    } else if (message.type === 'count') {
      void running?.then(({ pve }) => reply({ type: 'counted', requests: pve.requestCount() }))
    } else if (message.type === 'stop') {
      void stop().finally(() => {
        reply({ type: 'stopped' })
        process.exit(0)
      })
    }
  })
  // The parent is gone (crashed, or killed with SIGKILL): nobody polls us any more.
  process.on('disconnect', () => void stop().finally(() => process.exit(0)))
  // SIGINT from a terminal reaches the whole group: the parent decides when we stop.
  process.on('SIGINT', () => {})
}

if (typeof process.send === 'function' && process.env.PULSE_DEMO_SIM_CHILD === '1') serve()
