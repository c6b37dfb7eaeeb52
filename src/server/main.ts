// Entry point: `npm start` (real estate) and `npm run demo` (DEMO_MODE=true: simulator included).
import { buildApp } from './app.ts'
import { readConfig } from './config.ts'
import { startDemo } from './demo.ts'
import { chooseLogFormat, loggerOptions } from './log.ts'
import { startLoopStatsHook } from './loop-stats.ts'
import { VERSION } from './version.ts'

async function main(): Promise<void> {
  startLoopStatsHook()
  const config = readConfig(process.env, process.cwd(), VERSION)
  const format = chooseLogFormat(config.log.format, process.stdout.isTTY === true)
  const app = await buildApp({
    config,
    logger: loggerOptions(config.log.level, format, process.stdout),
  })
  const demo = config.demo ? await startDemo(config.demo, app) : null
  app.startPolling()
  await app.http.listen({ port: config.port, host: config.host })
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  app.http.log.info(
    `Pulse ${VERSION} serving http://${shown}:${config.port} (data: ${config.dataDir})`,
  )

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.http.log.info(`${signal}: shutting down`)
    await app.close()
    await demo?.stop()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
