// A real nats-server for tests: loopback only, JetStream in a temporary directory, a free port.
// Debian's binary (/usr/sbin/nats-server, installed by .ci/run); NATS_SERVER_BIN overrides it.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

export const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server'

/**
 * Why the NATS suites cannot run, or null when they can. In CI a missing binary is an error (the
 * suite must not silently pass), elsewhere the suite is skipped with this reason printed.
 */
export function natsUnavailable(): string | null {
  if (fs.existsSync(NATS_SERVER_BIN)) return null
  const why = `nats-server not found at ${NATS_SERVER_BIN} (apt-get install nats-server)`
  if (process.env.CI === 'true') throw new Error(`${why}; CI must run the NATS tests`)
  console.warn(`Skipping NATS tests: ${why}`)
  return why
}

export interface NatsServerOptions {
  /** Bytes; a small value forces the bus to chunk in tests. */
  maxPayload?: number
}

export interface NatsServer {
  url: string
  port: number
  storeDir: string
  /** Graceful stop (SIGTERM), waiting for the process to exit. */
  stop(): Promise<void>
  /** Hard kill (SIGKILL), waiting for the process to exit. */
  kill(): Promise<void>
  /** Start again on the same port and store directory (after stop or kill). */
  restart(): Promise<void>
  /** Stop and remove the store directory. */
  dispose(): Promise<void>
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nats-server exited: ${output()}`)
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1')
      socket.once('connect', () => (socket.destroy(), resolve(true)))
      socket.once('error', () => resolve(false))
    })
    // JetStream is ready once the log says so; the port alone opens slightly earlier.
    if (open && /Server is ready/.test(output())) return
    if (Date.now() > deadline) throw new Error(`nats-server did not start: ${output()}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Start a nats-server with JetStream on 127.0.0.1 and a free port. */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServer> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pulse-nats-'))
  const storeDir = path.join(root, 'js')
  const port = await freePort()
  const configFile = path.join(root, 'nats.conf')
  const lines = ['host: 127.0.0.1', `port: ${port}`, `jetstream { store_dir: "${storeDir}" }`]
  if (options.maxPayload) lines.push(`max_payload: ${options.maxPayload}`)
  fs.writeFileSync(configFile, lines.join('\n') + '\n')

  let child: ChildProcess | null = null
  const launch = async () => {
    let log = ''
    const proc = spawn(NATS_SERVER_BIN, ['-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] })
    proc.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()))
    proc.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()))
    child = proc
    await waitForPort(port, proc, () => log)
  }
  const end = async (signal: NodeJS.Signals) => {
    const proc = child
    child = null
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return
    const exited = new Promise((resolve) => proc.once('exit', resolve))
    proc.kill(signal)
    await exited
  }
  await launch()
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    restart: async () => {
      await end('SIGTERM')
      await launch()
    },
    dispose: async () => {
      await end('SIGKILL')
      fs.rmSync(root, { recursive: true, force: true })
    },
  }
}
