// The whole server against the real simulator on loopback: HTTPS, token auth, polling, the socket.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { applyDelta } from '../../../../src/shared/model/delta.ts'
import type { State } from '../../../../src/shared/model/state.ts'
import { startSimulator, type Simulator } from '../../../../src/server/sim/index.ts'
import { buildTestApp } from '../helpers.ts'

let sim: Simulator
let ctx: Awaited<ReturnType<typeof buildTestApp>>
let base: string

async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const value = await probe()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

async function getState(): Promise<{ state: State; seq: number; body: string }> {
  const res = await fetch(`${base}/api/state?format=internal`)
  const body = await res.text()
  return { state: JSON.parse(body) as State, seq: Number(res.headers.get('x-state-seq')), body }
}

beforeAll(async () => {
  sim = await startSimulator({
    seed: 7,
    clusters: 2,
    nodesPerCluster: 2,
    guestsPerNode: 10,
    tickMs: 0,
  })
  // A long interval: the test drives polls itself through pollNow().
  ctx = await buildTestApp({ pollIntervalMs: 3_600_000 })
  await ctx.app.http.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(ctx.app.http.server.address() as { port: number }).port}`
})

afterAll(async () => {
  await ctx?.close()
  await sim?.stop()
})

describe('monitoring a simulated cluster', () => {
  it('makes a cluster appear in the live state after adding it by token, without leaking the token', async () => {
    const cluster = sim.clusters[0]!
    const res = await fetch(`${base}/api/config/nodes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'pve',
        name: cluster.name,
        host: cluster.url,
        tokenName: cluster.tokenId,
        tokenValue: cluster.tokenSecret,
        fingerprint: cluster.fingerprint,
        verifySSL: false,
      }),
    })
    expect(res.status).toBe(201)
    const answer = await res.text()
    expect(answer).not.toContain(cluster.tokenSecret)

    const { state, body } = await waitFor(async () => {
      await ctx.app.poller.pollNow()
      const s = await getState()
      return s.state.nodes.length > 0 ? s : undefined
    }, 'the cluster in /api/state')
    expect(new Set(state.nodes.map((n) => n.instance))).toEqual(new Set([cluster.name]))
    expect(state.nodes.map((n) => n.name).sort()).toEqual([...cluster.nodeNames].sort())
    expect(state.vms.length + state.containers.length).toBeGreaterThan(0)
    expect(state.connectionHealth[cluster.name]).toBe(true)
    expect(body).not.toContain(cluster.tokenSecret)

    const list = await (await fetch(`${base}/api/config/nodes`)).text()
    expect(list).not.toContain(cluster.tokenSecret)
    expect(JSON.parse(list)[0]).toMatchObject({ hasToken: true, name: cluster.name })

    ctx.app.db.pragma('wal_checkpoint(TRUNCATE)')
    for (const file of fs.readdirSync(ctx.dataDir)) {
      const bytes = fs.readFileSync(path.join(ctx.dataDir, file))
      expect(bytes.includes(Buffer.from(cluster.tokenSecret)), file).toBe(false)
    }
  })

  it('streams deltas whose merge equals /api/state at the same sequence number', async () => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?deltas=1`)
    const messages: Array<{ type: string; data: unknown; seq?: number }> = []
    ws.on('message', (data) => messages.push(JSON.parse(String(data))))
    await new Promise((resolve) => ws.once('open', resolve))
    await waitFor(
      async () => (messages.some((m) => m.type === 'initialState') ? true : undefined),
      'initialState',
    )
    const initial = messages.find((m) => m.type === 'initialState')!
    expect(Object.keys(initial.data as object)).toEqual(
      expect.arrayContaining(['nodes', 'vms', 'containers']),
    )

    for (let i = 0; i < 3; i++) {
      sim.tick()
      await ctx.app.poller.pollNow()
    }
    const target = await getState()
    await waitFor(
      async () => (messages.at(-1)?.seq === target.seq ? true : undefined),
      'the last delta',
    )

    let merged = initial.data as State
    let seq = initial.seq!
    for (const msg of messages.filter((m) => m.type === 'delta')) {
      expect(msg.seq).toBe(seq + 1)
      seq = msg.seq!
      merged = applyDelta(merged, msg.data as never)
    }
    expect(seq).toBe(target.seq)
    expect(seq).toBeGreaterThan(initial.seq!)
    const sorted = (s: State) => ({
      ...s,
      nodes: [...s.nodes].sort((a, b) => a.id.localeCompare(b.id)),
      vms: [...s.vms].sort((a, b) => a.id.localeCompare(b.id)),
      containers: [...s.containers].sort((a, b) => a.id.localeCompare(b.id)),
    })
    expect(sorted(merged)).toEqual(sorted(target.state))
    ws.close()
  })
})
