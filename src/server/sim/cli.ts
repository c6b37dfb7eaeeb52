// Starts the simulator from the command line: `npx tsx src/server/sim/cli.ts`.
// Environment: SIM_SEED, SIM_CLUSTERS, SIM_NODES_PER_CLUSTER, SIM_GUESTS_PER_NODE, SIM_TICK_MS,
// SIM_AGENT_TIMEOUT_MS.

import { startSimulator } from './index.ts'

function readInt(name: string): number | undefined {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return undefined
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got '${raw}'`)
  return value
}

const sim = await startSimulator({
  seed: readInt('SIM_SEED'),
  clusters: readInt('SIM_CLUSTERS'),
  nodesPerCluster: readInt('SIM_NODES_PER_CLUSTER'),
  guestsPerNode: readInt('SIM_GUESTS_PER_NODE'),
  tickMs: readInt('SIM_TICK_MS'),
  agentTimeoutMs: readInt('SIM_AGENT_TIMEOUT_MS'),
})

console.log(`Proxmox VE simulator: ${sim.guestCount()} guests in ${sim.clusters.length} clusters`)
for (const c of sim.clusters) {
  console.log(`\n${c.name}${c.standalone ? ' (standalone)' : ''}: ${c.url}`)
  console.log(`  nodes:       ${c.nodeNames.join(', ')}`)
  console.log(`  endpoints:   ${c.endpoints.map((e) => e.url).join(', ')}`)
  console.log(`  token:       PVEAPIToken=${c.tokenId}=${c.tokenSecret}`)
  console.log(`  fingerprint: ${c.fingerprint}`)
}

// The listening servers keep the process alive; stop them cleanly on Ctrl-C.
const shutdown = (): void => {
  void sim.stop().then(() => process.exit(0))
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
