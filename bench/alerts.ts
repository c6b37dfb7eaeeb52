// Benchmark: the alert engine's evaluate() over a whole estate, per poll. Every guest has the 7
// guest metrics (I/O triggers on, as after the Thresholds card's reset) plus 2 filesystems; 2% of
// guests are stopped (their powered-off alerts stay open) and the fixture's 2% of nodes are offline
// (their guests' alerts are held stale). Flapping and re-fire suppression are off so every cycle
// does the full fire and resolve work.
import type { AlertConfig } from '../src/shared/model/alerts.ts'
import type { Guest, State } from '../src/shared/model/state.ts'
import { createDefaultAlertConfig, RESET_GUEST_IO } from '../src/server/alerts/config-defaults.ts'
import { evaluate } from '../src/server/alerts/evaluate.ts'
import { createEngineState, type EngineState } from '../src/server/alerts/engine-types.ts'
import { createEstate, createRandom } from './fixtures.ts'
import { getIterations, measure, type BenchResult } from './harness.ts'

const GIB = 1024 ** 3

function calmGuest(guest: Guest, random: () => number): Guest {
  const running = random() >= 0.02
  const fs = (mountpoint: string, device: string) => {
    const usage = random() * 80
    return { mountpoint, device, type: 'ext4', used: usage * GIB, total: 100 * GIB, usage }
  }
  return {
    ...guest,
    status: running ? 'running' : 'stopped',
    cpu: running ? random() * 0.7 : 0,
    memory: { ...guest.memory, usage: running ? random() * 80 : 0 },
    disk: { ...guest.disk, usage: guest.disk.usage < 0 ? -1 : random() * 85 },
    disks: [fs('/', '/dev/sda1'), fs('/var', '/dev/sdb1')],
  }
}

function benchConfig(): AlertConfig {
  const config = createDefaultAlertConfig()
  Object.assign(config.guestDefaults, structuredClone(RESET_GUEST_IO))
  config.timeThresholds = { guest: 0, node: 0, storage: 0, pbs: 0 }
  config.flapping.enabled = false
  config.suppressionWindow = 0
  return config
}

const roundTrip = (state: State): State => JSON.parse(JSON.stringify(state)) as State

/** The steady estate, its 5%-crossed twin and the config of the cases (also for profiling). */
export function benchAlertsInputs(size: number): {
  calm: State
  crossed: State
  config: AlertConfig
} {
  const random = createRandom(11)
  const estate = createEstate(size)
  const calm: State = roundTrip({
    ...estate,
    vms: estate.vms.map((g) => calmGuest(g, random)),
    containers: estate.containers.map((g) => calmGuest(g, random)),
    connectionHealth: Object.fromEntries(estate.nodes.map((n) => [n.instance, true])),
  })
  // Five per cent of the running guests cross cpu and memory (a different fifth each time would
  // not change the work: each crossing guest fires two alerts, then resolves them).
  const cross = (guests: Guest[]) =>
    guests.map((g, i) =>
      i % 20 === 0 && g.status === 'running'
        ? { ...g, cpu: 0.97, memory: { ...g.memory, usage: 97 } }
        : g,
    )
  // Through JSON, as the live state's objects are built (uniform shapes): spread-built objects of
  // this size fall into slow property modes in V8 and would measure the fixture, not the engine.
  const crossed = roundTrip({ ...calm, vms: cross(calm.vms), containers: cross(calm.containers) })
  return { calm, crossed, config: benchConfig() }
}

/** Run the engine cases at one estate size. */
export function benchAlerts(size: number): BenchResult[] {
  const { calm, crossed, config } = benchAlertsInputs(size)
  const counts = getIterations(size)
  let engine: EngineState = createEngineState()
  let time = calm.lastUpdate
  const poll = (state: State) => {
    time += 10_000
    const result = evaluate({ ...state, lastUpdate: time }, config, time, engine)
    engine = result.next
    return result
  }
  poll(calm)
  const steadyAlerts = engine.active.size
  const results: BenchResult[] = []
  results.push(
    measure({
      name: 'no change (steady estate, new poll)',
      size,
      ...counts,
      run: () => void poll(calm),
    }),
  )
  let transitions = 0
  results.push(
    measure({
      name: '5% cross cpu+memory (fire)',
      size,
      ...counts,
      before: () => void poll(calm),
      run: () => void (transitions = poll(crossed).transitions.length),
    }),
  )
  results.push(
    measure({
      name: '5% recover (resolve)',
      size,
      ...counts,
      before: () => void poll(crossed),
      run: () => void poll(calm),
    }),
  )
  console.log(
    `alerts @${size.toLocaleString('en-US')}: ${steadyAlerts} alerts open in the steady estate, ` +
      `${transitions} fired per crossing cycle`,
  )
  return results
}
