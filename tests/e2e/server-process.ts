// Starts the real server (demo mode, small fast estate, or a role of several machines without the
// simulator) as a child process on loopback.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

export interface ServerProcess {
  url: string
  port: number
  dataDir: string
  start(): Promise<void>
  stop(): Promise<void>
  /** SIGKILL, waiting for the process to exit: a machine that dies without a word. */
  kill(): Promise<void>
  /** What the process printed since its last start (for failure messages). */
  output(): string
  cleanup(): void
}

export interface ServerProcessOptions {
  /** Run the simulator in the process (default true); false for roles given their nodes by API. */
  demo?: boolean
  /** Share a data directory (two collectors of one group); default a new temporary one. */
  dataDir?: string
}

// Ports handed out below Linux's ephemeral range (32768-60999): a port the kernel picked (port 0)
// is free only until the server binds it, and meanwhile any outgoing connection or simulator may
// be given it (a server once failed to start with EADDRINUSE that way). Below that range nothing
// is assigned automatically; a random pick makes two callers at once unlikely to meet.
const PORT_FLOOR = 20_000
const PORT_SPAN = 12_000

/** Whether 127.0.0.1:`port` can be listened on now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer()
    srv.once('error', () => resolve(false))
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)))
  })
}

/** A free TCP port on 127.0.0.1, outside the range the kernel assigns by itself. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = PORT_FLOOR + Math.floor(Math.random() * PORT_SPAN)
    if (await canListen(port)) return port
  }
  throw new Error(`no free port between ${PORT_FLOOR} and ${PORT_FLOOR + PORT_SPAN} in 100 tries`)
}

/**
 * A demo server that can be stopped and started again on the same port and data directory.
 * Simulator ports stay ephemeral: the demo re-registers its clusters on every start.
 */
export async function createServerProcess(
  env: Record<string, string> = {},
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const port = await freePort()
  const ownDataDir = options.dataDir === undefined
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pulse-e2e-'))
  let child: ChildProcess | null = null
  let output = ''
  const url = `http://127.0.0.1:${port}`

  const waitHealthy = async () => {
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      if (child?.exitCode !== null) throw new Error(`server exited early:\n${output}`)
      try {
        const res = await fetch(`${url}/api/health`)
        if (res.ok) return
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    throw new Error(`server did not become healthy:\n${output}`)
  }

  const end = async (signal: NodeJS.Signals) => {
    const proc = child
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve())
      proc.kill(signal)
      if (signal !== 'SIGKILL') setTimeout(() => proc.kill('SIGKILL'), 5000).unref()
    })
  }

  return {
    url,
    port,
    dataDir,
    async start() {
      output = ''
      // tsx as a loader in this very process, not its CLI: the CLI runs the server in a child of
      // its own, which a SIGKILL of the CLI would leave running (kill() must kill the server).
      child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        env: {
          ...process.env,
          DEMO_MODE: options.demo === false ? 'false' : 'true',
          PORT: String(port),
          HOST: '127.0.0.1',
          PULSE_DATA_DIR: dataDir,
          DEMO_CLUSTERS: '3',
          DEMO_NODES_PER_CLUSTER: '2',
          DEMO_GUESTS_PER_NODE: '40',
          DEMO_TICK_MS: '1000',
          PULSE_POLL_INTERVAL_MS: '1000',
          LOG_LEVEL: 'warn',
          // Specs that test login pass DISABLE_AUTH themselves.
          DISABLE_AUTH: process.env.DISABLE_AUTH ?? 'true',
          // Nothing listens on port 9: an update check without the spec's own loopback feed
          // (tests/fixtures/release-feed.ts) fails at once instead of reaching the internet.
          UPDATE_FEED_URL: 'http://127.0.0.1:9/releases',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child.stdout?.on('data', (d) => (output += d))
      child.stderr?.on('data', (d) => (output += d))
      await waitHealthy()
    },
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    output: () => output,
    cleanup() {
      if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
