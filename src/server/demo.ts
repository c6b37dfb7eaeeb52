// Demo mode: start the simulator in its own process on loopback (sim/demo-child.ts) and register
// its clusters as configured nodes. A separate process, not a worker thread: at 100k guests the
// simulator renders tens of MB per cycle and its heap and GC pauses must not count as the server's.
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { App } from './app.ts'
import type { DemoConfig } from './config.ts'
import type { DemoSimEndpoint, DemoSimReply, DemoSimRequest } from './sim/demo-child.ts'

/** The running simulators of the demo. */
export interface DemoSimulators {
  /** Guests the simulated clusters hold at start. */
  guests: number
  /** The simulator's process. */
  pid: number
  stop(): Promise<void>
}

const CHILD = fileURLToPath(new URL('./sim/demo-child.ts', import.meta.url))
// A 100k-guest estate takes a while to build on a busy machine; a child that says nothing in this
// long is stuck.
const START_TIMEOUT_MS = 300_000
const STOP_TIMEOUT_MS = 10_000

/**
 * Start the simulated estate (PVE clusters and a backup server) and point the app at it.
 * `execArgv` of the simulator process defaults to the server's own (the TypeScript loader it runs
 * under) without debugger or profiler flags.
 */
export async function startDemo(
  demo: DemoConfig,
  app: App,
  options: { execArgv?: string[] } = {},
): Promise<DemoSimulators> {
  const child = fork(CHILD, [], {
    execArgv:
      options.execArgv ??
      process.execArgv.filter((a) => !/^--(inspect|cpu-prof|heap-prof)/.test(a)),
    env: { ...process.env, PULSE_DEMO_SIM_CHILD: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const send = (message: DemoSimRequest) => child.send(message)
  let ready: Extract<DemoSimReply, { type: 'ready' }>
  try {
    ready = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('demo simulator did not start')),
        START_TIMEOUT_MS,
      )
      timer.unref()
      child.on('message', (message: DemoSimReply) => {
        clearTimeout(timer)
        if (message.type === 'ready') resolve(message)
        if (message.type === 'error') reject(new Error(`demo simulator: ${message.message}`))
      })
      child.once('exit', (code) => reject(new Error(`demo simulator exited (${code})`)))
      child.once('error', reject)
      send({ type: 'start', options: demo })
    })
  } catch (err) {
    child.kill('SIGKILL')
    throw err
  }
  // Upsert by name: the certificate and ports are new on every start, so the stored fingerprint
  // and URL are refreshed; the token is pinned by fingerprint, not verified by CA.
  for (const cluster of ready.pve) registerDemoNode(app, 'pve', cluster)
  // The backup server holds backups of the first cluster's guests.
  for (const server of ready.pbs) registerDemoNode(app, 'pbs', server)
  app.http.log.info(
    `demo: simulating ${ready.pve.length} clusters, ${ready.guests} guests and ` +
      `${ready.pbs.length} backup servers on 127.0.0.1 (simulator process ${child.pid})`,
  )
  let stopping = false
  child.once('exit', (code, signal) => {
    if (!stopping) app.http.log.error(`demo: the simulator process exited (${signal ?? code})`)
  })
  return {
    guests: ready.guests,
    pid: child.pid ?? 0,
    stop: () => {
      stopping = true
      return stopChild(child, send)
    },
  }
}

async function stopChild(child: ChildProcess, send: (m: DemoSimRequest) => void): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    if (child.connected) send({ type: 'stop' })
    else child.kill('SIGTERM')
  })
}

/** Store a simulated endpoint as a configured node (token auth, pinned fingerprint). */
function registerDemoNode(app: App, type: 'pve' | 'pbs', endpoint: DemoSimEndpoint): void {
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
