// Test builder: a real app on a temporary data directory (real SQLite file, real key file).
import path from 'node:path'
import { buildApp, type App } from '../../../src/server/app.ts'
import type { KdfCost } from '../../../src/server/backup/config-crypto.ts'
import { readConfig, type ServerConfig } from '../../../src/server/config.ts'
import { makeTempDir } from './temp-dir.ts'

/**
 * scrypt cost of the tests' configuration exports: the real code path at 1/128 of the
 * production work (N=2^10 instead of 2^17), so the unit tier does not spend minutes hashing.
 */
export const TEST_KDF_COST: KdfCost = { N: 1024, r: 8, p: 1 }

/**
 * Build an app on a temporary data dir; call `close()` when done. Authentication is disabled
 * unless `overrides.authDisabled` is false (the auth tests).
 */
export async function buildTestApp(
  overrides: Partial<ServerConfig> = {},
  options: { logger?: boolean | object; now?: () => number; exportKdfCost?: KdfCost } = {},
): Promise<{ app: App; dataDir: string; close: () => Promise<void> }> {
  const { dir, cleanup } = makeTempDir()
  const config = {
    ...readConfig(
      {
        PULSE_DATA_DIR: dir,
        PULSE_STATIC_DIR: path.join(dir, 'no-dist'),
        // Nothing listens on port 9: a test that checks for updates without its own loopback
        // feed gets a refused connection, never the real release server.
        UPDATE_FEED_URL: 'http://127.0.0.1:9/releases',
      },
      process.cwd(),
      '0.0.0-test',
    ),
    authDisabled: true,
    ...overrides,
  }
  const app = await buildApp({
    config,
    logger: options.logger,
    now: options.now,
    exportKdfCost: options.exportKdfCost ?? TEST_KDF_COST,
  })
  return {
    app,
    dataDir: dir,
    close: async () => {
      await app.close()
      cleanup()
    },
  }
}
