// The parent's side of the simulator process (demo-child.ts): fork it, start the estate, tick it
// by hand, stop it. The demo and the collector bench use it, so the simulator's rendering, TLS and
// GC never run on the event loop of the process that polls it.
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { DemoSimEndpoint, DemoSimOptions, DemoSimReply, DemoSimRequest } from './demo-child.ts'

/** A running simulator process. */
export interface SimProcess {
  pve: DemoSimEndpoint[]
  pbs: DemoSimEndpoint[]
  /** Guests the simulated clusters hold at start. */
  guests: number
  pid: number
  /** Advances the model one step (with tickMs 0); resolves with the PVE requests served so far. */
  tick(): Promise<number>
  /** PVE requests served so far. */
  requests(): Promise<number>
  /** Called once if the process exits before stop(). */
  onExit(listener: (reason: string) => void): void
  stop(): Promise<void>
}

const CHILD = fileURLToPath(new URL('./demo-child.ts', import.meta.url))
// A 100k-guest estate takes a while to build on a busy machine; a child that says nothing in this
// long is stuck.
const START_TIMEOUT_MS = 300_000
const STOP_TIMEOUT_MS = 10_000

/**
 * Fork the simulator and start its estate. `execArgv` defaults to this process's own (the
 * TypeScript loader it runs under) without debugger or profiler flags.
 */
export async function startSimProcess(
  options: DemoSimOptions,
  execArgv = process.execArgv.filter((a) => !/^--(inspect|cpu-prof|heap-prof)/.test(a)),
): Promise<SimProcess> {
  const child = fork(CHILD, [], {
    execArgv,
    env: { ...process.env, PULSE_DEMO_SIM_CHILD: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const send = (message: DemoSimRequest) => child.send(message)
  const next = <T extends DemoSimReply['type']>(type: T) =>
    new Promise<Extract<DemoSimReply, { type: T }>>((resolve, reject) => {
      const onMessage = (message: DemoSimReply) => {
        if (message.type === 'error') reject(new Error(`simulator: ${message.message}`))
        else if (message.type !== type) return
        else resolve(message as Extract<DemoSimReply, { type: T }>)
        child.off('message', onMessage)
        child.off('exit', onExit)
      }
      const onExit = (code: number | null) => reject(new Error(`simulator exited (${code})`))
      child.on('message', onMessage)
      child.once('exit', onExit)
    })
  let ready: Extract<DemoSimReply, { type: 'ready' }>
  try {
    const answer = next('ready')
    send({ type: 'start', options })
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('simulator did not start')), START_TIMEOUT_MS)
    })
    ready = await Promise.race([answer, timeout]).finally(() => clearTimeout(timer))
  } catch (err) {
    child.kill('SIGKILL')
    throw err
  }
  let stopping = false
  return {
    pve: ready.pve,
    pbs: ready.pbs,
    guests: ready.guests,
    pid: child.pid ?? 0,
    async tick() {
      const answer = next('ticked')
      send({ type: 'tick' })
      return (await answer).requests
    },
    async requests() {
      const answer = next('counted')
      send({ type: 'count' })
      return (await answer).requests
    },
    onExit(listener) {
      child.once('exit', (code, signal) => {
        if (!stopping) listener(String(signal ?? code))
      })
    },
    stop() {
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
