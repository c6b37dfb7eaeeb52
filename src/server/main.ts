// Entry point: `npm start` (real estate) and `npm run demo` (DEMO_MODE=true: simulator included),
// in the role PULSE_ROLE names: all (default, one process), collector or web (several machines).
import { setFlagsFromString } from 'node:v8'
import { buildApp } from './app.ts'
import { readConfig, type ServerConfig } from './config.ts'
import { startDemo, type DemoSimulators } from './demo.ts'
import { chooseLogFormat, loggerOptions } from './log.ts'
import { setLoopStatsCounts, startLoopStatsHook } from './loop-stats.ts'
import { startCollectorRole } from './roles/collector.ts'
import { startWebRole } from './roles/web.ts'
import { VERSION } from './version.ts'

interface Running {
  log: { info(msg: string): void }
  close(): Promise<void>
}

async function startAll(config: ServerConfig, logger: object): Promise<Running> {
  const app = await buildApp({ config, logger })
  setLoopStatsCounts(() => {
    const state = app.live.current().state
    return {
      guests: state.vms.length + state.containers.length,
      backupRecords: state.storageBackups.length + state.pbsBackups.length,
    }
  })
  const demo = config.demo ? await startDemo(config.demo, app) : null
  app.startPolling()
  await app.http.listen({ port: config.port, host: config.host })
  listening(app.http.log, config, `data: ${config.dataDir}`)
  return { log: app.http.log, close: async () => (await app.close(), await demo?.stop()) }
}

async function startCollector(config: ServerConfig, logger: object): Promise<Running> {
  // The simulator starts with the process; its endpoints are stored only by the active collector.
  let demo: DemoSimulators | null = null
  const role = await startCollectorRole({
    config,
    logger,
    prepare: async (app) => {
      if (config.demo) demo = await startDemo(config.demo, app, { register: false })
    },
    onActive: () => demo?.register(),
  })
  await role.app.http.listen({ port: config.port, host: config.host })
  const { instanceId, collectorGroup } = config.cluster
  listening(
    role.app.http.log,
    config,
    `collector ${instanceId} of group ${collectorGroup}, data: ${config.dataDir}`,
  )
  return { log: role.app.http.log, close: async () => (await role.close(), await demo?.stop()) }
}

async function startWeb(config: ServerConfig, logger: object): Promise<Running> {
  const role = await startWebRole({ config, logger })
  await role.http.listen({ port: config.port, host: config.host })
  listening(role.http.log, config, `web node ${config.cluster.instanceId}`)
  return { log: role.http.log, close: () => role.close() }
}

function listening(log: { info(msg: string): void }, config: ServerConfig, what: string): void {
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  log.info(`Pulse ${VERSION} serving http://${shown}:${config.port} (${what})`)
}

/**
 * V8 lets a heap grow up to 4x what a collection left before the next full one, and the server has
 * two heaps (the loop's and the collector thread's): at 100,000 guests that was 4.6 GiB of RSS
 * for about 2 GiB live. 30 % keeps it near 3.5 GiB (bench/README.md, health watch) for a little
 * more collection. Set before anything is allocated in bulk; it is the process's, threads included.
 */
const HEAP_GROWING_PERCENT = 30

async function main(): Promise<void> {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
  startLoopStatsHook()
  const config = readConfig(process.env, process.cwd(), VERSION)
  const format = chooseLogFormat(config.log.format, process.stdout.isTTY === true)
  const logger = loggerOptions(config.log.level, format, process.stdout)
  const start = { all: startAll, collector: startCollector, web: startWeb }[config.cluster.role]
  const running = await start(config, logger)

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    running.log.info(`${signal}: shutting down`)
    // A collector gives its lease up here, so a standby takes over at its next attempt.
    await running.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
