// Shared by the role tests: a role's configuration on a temporary data directory, a small
// simulated estate, and waiting for conditions.
import path from 'node:path'
import { readConfig, type ServerConfig } from '../../../../src/server/config.ts'
import type { DemoConfig } from '../../../../src/server/config.ts'
import { TEST_KDF_COST } from '../helpers.ts'

export { waitFor } from '../bus/bus-helpers.ts'
export { TEST_KDF_COST }

/** The simulator runs in a child process; under vitest it needs the TypeScript loader named. */
export const EXEC_ARGV = ['--import', 'tsx']

export const TTL_MS = 3000

export const SMALL_ESTATE: DemoConfig = {
  seed: 5,
  clusters: 1,
  nodesPerCluster: 2,
  guestsPerNode: 5,
  basePort: 0,
  tickMs: 0,
  pbsInstances: 0,
  alertScenarios: true,
}

/** A role's configuration as main.ts would read it, with authentication as asked. */
export function roleConfig(
  env: Record<string, string>,
  dataDir: string,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  return {
    ...readConfig(
      {
        PULSE_DATA_DIR: dataDir,
        PULSE_STATIC_DIR: path.join(dataDir, 'no-dist'),
        UPDATE_FEED_URL: 'http://127.0.0.1:9/releases',
        PULSE_POLL_INTERVAL_MS: '1000',
        PULSE_LEASE_TTL_MS: String(TTL_MS),
        ...env,
      },
      process.cwd(),
      '0.0.0-test',
    ),
    authDisabled: true,
    ...overrides,
  }
}
