// Test builder: a real app on a temporary data directory (real SQLite file, real key file).
import path from 'node:path'
import { buildApp, type App } from '../../../src/server/app.ts'
import { readConfig, type ServerConfig } from '../../../src/server/config.ts'
import { makeTempDir } from './temp-dir.ts'

/**
 * Build an app on a temporary data dir; call `close()` when done. Authentication is disabled
 * unless `overrides.authDisabled` is false (the auth tests).
 */
export async function buildTestApp(
  overrides: Partial<ServerConfig> = {},
  options: { logger?: boolean | object; now?: () => number } = {},
): Promise<{ app: App; dataDir: string; close: () => Promise<void> }> {
  const { dir, cleanup } = makeTempDir()
  const config = {
    ...readConfig(
      { PULSE_DATA_DIR: dir, PULSE_STATIC_DIR: path.join(dir, 'no-dist') },
      process.cwd(),
      '0.0.0-test',
    ),
    authDisabled: true,
    ...overrides,
  }
  const app = await buildApp({ config, logger: options.logger, now: options.now })
  return {
    app,
    dataDir: dir,
    close: async () => {
      await app.close()
      cleanup()
    },
  }
}
