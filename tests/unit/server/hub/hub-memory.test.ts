import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it } from 'vitest'
import type { State } from '../../../../src/shared/model/state.ts'
import { makeCollected } from '../collected-fixture.ts'
import { startHubHarness, type HubHarness } from './hub-harness.ts'

// A real collection (not a fake): V8's own gc, exposed for this test only.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const silentLog = { warn: () => {} }
let harness: HubHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

describe('socket hub: memory of past publications', () => {
  it('keeps no past state alive, and still catches a lagging client up from its deltas', async () => {
    harness = await startHubHarness(silentLog)
    await harness.live.applyCollected(makeCollected(40, 1))
    const plain = await harness.connect()
    const delta = await harness.connect('/ws?deltas=1')
    const delta2 = await harness.connect('/ws?deltas=2')
    await delta.waitFor((m) => m.some((x) => x.type === 'initialState'))
    await delta2.waitFor((m) => m.some((x) => x.type === 'snapshotEnd'))
    const past: Array<WeakRef<State>> = []
    for (let tick = 2; tick <= 5; tick++) {
      harness.clock.now += 10_000
      past.push(new WeakRef(harness.live.current().state))
      await harness.live.applyCollected(makeCollected(40, tick))
    }
    const seq = harness.live.current().seq
    await delta.waitFor((m) => m.some((x) => x.type === 'delta' && x.seq === seq))
    await delta2.waitFor((m) => m.some((x) => x.type === 'delta' && x.seq === seq))
    await plain.waitFor((m) => m.filter((x) => x.type === 'rawData').length >= 4)
    // Frames are sent; let the socket writes settle before collecting.
    await new Promise((resolve) => setImmediate(resolve))
    gc()
    expect(past.map((ref) => ref.deref() === undefined)).toEqual([true, true, true, true])
    for (const client of [plain, delta, delta2]) client.ws.close()
  })
})
