// Several machines on loopback for the e2e spec of issue 17: a real nats-server, the simulators in
// their own process, two collectors of one group sharing a data directory, and two web nodes.
// Everything started here is stopped by `stopAll`, whatever failed half-way.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startNatsServer, type NatsServer } from '../../support/nats-server.ts'
import { createServerProcess, type ServerProcess } from '../server-process.ts'
import { startSims, type SimProcess } from './sims.ts'

/** Short, so a takeover fits in a test; the contract is ttl + ttl/5. */
export const LEASE_TTL_MS = 3000

export interface CollectorHealth {
  role: 'collector'
  active: boolean
  instance: string
}

export interface WebHealth {
  role: 'web'
  collector: { epoch: string; seq: number; stale: boolean; connected: boolean }
}

export interface Machines {
  nats: NatsServer
  sims: SimProcess
  collectors: ServerProcess[]
  webs: ServerProcess[]
  /** Every process's output, for a failure message. */
  logs(): string
  stopAll(): Promise<void>
}

export async function health<T>(server: ServerProcess): Promise<T | null> {
  try {
    const res = await fetch(`${server.url}/api/health`)
    return res.ok ? ((await res.json()) as T) : null
  } catch {
    return null
  }
}

/** The collector holding the lease now, or null (none, or both claim it: never acceptable). */
export async function activeCollector(collectors: ServerProcess[]): Promise<ServerProcess | null> {
  const states = await Promise.all(collectors.map((c) => health<CollectorHealth>(c)))
  const active = collectors.filter((_, i) => states[i]?.active === true)
  if (active.length > 1) throw new Error('two collectors claim the lease at once')
  return active[0] ?? null
}

/** Start everything; on a failure, stop what was started and rethrow. */
export async function startMachines(extraCollectorEnv: Record<string, string>): Promise<Machines> {
  const started: Array<() => Promise<void>> = []
  const sharedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pulse-e2e-group-'))
  const all: ServerProcess[] = []
  const machines: Partial<Machines> = {}
  const stopAll = async () => {
    // Web nodes first (they only read), then collectors, simulators and the bus last.
    for (const stop of started.reverse()) await stop().catch(() => undefined)
    started.length = 0
    for (const server of all) server.cleanup()
    fs.rmSync(sharedDir, { recursive: true, force: true })
  }
  try {
    const nats = await startNatsServer()
    started.push(() => nats.dispose())
    const sims = await startSims()
    started.push(() => sims.stop())
    const common = {
      NATS_URL: nats.url,
      PULSE_COLLECTOR_GROUP: 'e2e',
      PULSE_LEASE_TTL_MS: String(LEASE_TTL_MS),
    }
    const collectors = await Promise.all(
      ['collector-a', 'collector-b'].map((id) =>
        createServerProcess(
          {
            ...common,
            ...extraCollectorEnv,
            PULSE_ROLE: 'collector',
            PULSE_INSTANCE_ID: id,
          },
          { demo: false, dataDir: sharedDir },
        ),
      ),
    )
    const webs = await Promise.all(
      ['web-a', 'web-b'].map((id) =>
        createServerProcess(
          { ...common, PULSE_ROLE: 'web', PULSE_INSTANCE_ID: id },
          { demo: false },
        ),
      ),
    )
    all.push(...collectors, ...webs)
    for (const server of all) started.push(() => server.stop())
    // The first collector alone first, so it creates the database before the second opens it.
    await collectors[0]!.start()
    await Promise.all([collectors[1]!.start(), ...webs.map((w) => w.start())])
    Object.assign(machines, { nats, sims, collectors, webs })
  } catch (err) {
    await stopAll()
    throw err
  }
  return {
    ...(machines as Omit<Machines, 'logs' | 'stopAll'>),
    logs: () => all.map((s, i) => `--- process ${i} (${s.url})\n${s.output()}`).join('\n'),
    stopAll,
  }
}
