// The app feeds every polled state to the recent store (history/wiring.ts): a real app on a
// temporary SQLite file polling the real PVE simulator over HTTPS on 127.0.0.1.
import { afterAll, describe, expect, it } from 'vitest'
import type { Simulator } from '../../../../src/server/sim/index.ts'
import type { AuthTestServer } from '../auth/auth-helpers.ts'
import { startOpenServer, startPve } from '../nodes/node-helpers.ts'

let sim: Simulator | undefined
let server: AuthTestServer | undefined
afterAll(async () => {
  await server?.close()
  await sim?.stop()
})

describe('recording the polls', () => {
  it("a polled node's CPU reaches the recent store, as the live state shows it", async () => {
    const pve = await startPve(1)
    sim = pve.sim
    server = await startOpenServer()
    const { app } = server.ctx
    const added = await server.call('POST', '/api/config/nodes', {
      body: {
        type: 'pve',
        name: 'alpha',
        host: pve.cluster.url,
        tokenName: pve.cluster.tokenId,
        tokenValue: pve.cluster.tokenSecret,
        fingerprint: pve.cluster.fingerprint,
      },
    })
    expect(added.status).toBe(201)
    await expect
      .poll(() => app.live.current().state.nodes.filter((n) => n.status === 'online').length, {
        timeout: 15_000,
      })
      .toBe(1)
    const node = app.live.current().state.nodes[0]!
    await expect
      .poll(() => app.history.recent.series(node.id, ['cpu'], 0)?.cpu?.max?.at(-1) ?? null, {
        timeout: 15_000,
      })
      .not.toBeNull()
    // The simulator does not tick here: every poll has the live values.
    const now = app.live.current().state.nodes[0]!
    const series = app.history.recent.series(node.id, ['cpu', 'memory'], 0)!
    expect(series.cpu!.avg.at(-1)).toBeCloseTo(now.cpu * 100, 3)
    expect(series.cpu!.max!.at(-1)).toBeCloseTo(now.cpu * 100, 3)
    expect(series.memory!.avg.at(-1)).toBeCloseTo((now.memory.used / now.memory.total) * 100, 3)
  })
})
