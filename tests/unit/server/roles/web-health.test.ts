// A web node's /api/health follows its NATS connection (issue 24 #9): a real nats-server on
// loopback is killed (SIGKILL) and started again; no collector is needed for the node's own health.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebRole, type WebRole } from '../../../../src/server/roles/web.ts'
import { natsUnavailable, startNatsServer, type NatsServer } from '../../../support/nats-server.ts'
import { makeTempDir } from '../temp-dir.ts'
import { roleConfig } from './role-helpers.ts'

/** Ask `check` until it answers true (10 s at most). */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe.skipIf(natsUnavailable())('PULSE_ROLE=web health and the bus', () => {
  let server: NatsServer
  let web: WebRole
  let base = ''
  let cleanup: () => void

  beforeAll(async () => {
    server = await startNatsServer()
    const temp = makeTempDir()
    cleanup = temp.cleanup
    web = await startWebRole({
      config: roleConfig({ PULSE_ROLE: 'web', NATS_URL: server.url }, temp.dir),
    })
    await web.http.listen({ host: '127.0.0.1', port: 0 })
    base = `http://127.0.0.1:${(web.http.server.address() as { port: number }).port}`
  }, 30_000)
  afterAll(async () => {
    await web?.close()
    await server?.dispose()
    cleanup?.()
  })

  const health = async () =>
    (await (await fetch(`${base}/api/health`)).json()) as {
      status: string
      bus: { connected: boolean }
      collector: { connected: boolean }
    }

  it('says the bus is down, and degraded, once NATS is killed; connected again after', async () => {
    expect((await health()).bus).toEqual({ connected: true })
    await server.kill()
    await until(async () => !(await health()).bus.connected, 'health to see NATS gone')
    expect(await health()).toMatchObject({
      status: 'degraded',
      bus: { connected: false },
      collector: { connected: false },
    })
    await server.restart()
    await until(async () => (await health()).bus.connected, 'health to see NATS back')
  }, 60_000)
})
