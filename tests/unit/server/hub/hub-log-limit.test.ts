import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import {
  MALFORMED_LOG_BURST,
  MALFORMED_LOG_WINDOW_MS,
} from '../../../../src/server/hub/log-limit.ts'
import { makeCollected } from '../collected-fixture.ts'
import { startHubHarness, type HubHarness, type TestClient } from './hub-harness.ts'

let harness: HubHarness
afterEach(() => harness.close())

/** A log that records every warning and can wait for one. */
function recordingLog() {
  const lines: Array<{ obj: object; msg: string }> = []
  const waiters: Array<() => void> = []
  return {
    lines,
    log: {
      warn(obj: object, msg: string) {
        lines.push({ obj, msg })
        waiters.splice(0).forEach((w) => w())
      },
    },
    async waitFor(pred: () => boolean) {
      while (!pred()) await new Promise<void>((resolve) => waiters.push(resolve))
    },
  }
}

/** Send a ping and wait for its pong: every frame sent before it has been handled. */
async function roundTrip(client: TestClient) {
  const pongs = client.messages.filter((m) => m.type === 'pong').length
  client.ws.send(JSON.stringify({ type: 'ping', data: { timestamp: 1 } }))
  await client.waitFor((m) => m.filter((x) => x.type === 'pong').length > pongs)
}

describe('socket hub: malformed frames', () => {
  it('logs a bounded number of lines for 10,000 malformed frames and keeps the connection', async () => {
    const recorded = recordingLog()
    harness = await startHubHarness(recorded.log)
    await harness.live.applyCollected(makeCollected(5, 1))
    const client = await harness.connect()
    await client.waitFor((m) => m.length >= 2)
    for (let i = 0; i < 10_000; i++) client.ws.send(i % 2 ? '{not json' : '{"noType":true}')
    await roundTrip(client)
    expect(client.ws.readyState).toBe(WebSocket.OPEN)
    expect(recorded.lines).toHaveLength(MALFORMED_LOG_BURST)

    // The next window starts with the summary of the one before, then logs in full again.
    harness.clock.now += MALFORMED_LOG_WINDOW_MS
    for (let i = 0; i < 3; i++) client.ws.send('nope')
    await roundTrip(client)
    const summary = recorded.lines[MALFORMED_LOG_BURST]!
    expect(summary.obj).toMatchObject({ suppressed: 10_000 - MALFORMED_LOG_BURST })
    expect(summary.msg).toContain(String(10_000 - MALFORMED_LOG_BURST))
    expect(recorded.lines).toHaveLength(MALFORMED_LOG_BURST + 1 + 3)

    // What is still counted when the client leaves is summarised on close.
    for (let i = 0; i < 10; i++) client.ws.send('nope')
    await roundTrip(client)
    client.ws.close()
    await recorded.waitFor(() => recorded.lines.length === MALFORMED_LOG_BURST + 1 + 5 + 1)
    expect(recorded.lines.at(-1)!.obj).toMatchObject({ suppressed: 8 })
  })
})
