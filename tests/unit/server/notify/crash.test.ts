// Acceptance 3 of issue 15: with the receiver down, alerts fire; the server is killed with
// SIGKILL, restarted, and the receiver comes up: every notification arrives, and none twice
// under a different idempotency key. A real server process on a real SQLite file; the receiver
// records the `Idempotency-Key` header (the real webhook channel sends the same header). Issue
// 28: silences created and ended before a kill are there after it.
import { fork, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { DeliveryRecord } from '../../../../src/shared/model/notifications.ts'
import { makeTempDir } from '../temp-dir.ts'
import { createReceiver } from './notify-fixture.ts'

const CHILD = fileURLToPath(new URL('./notify-server-child.ts', import.meta.url))
const children: ChildProcess[] = []
const temp = makeTempDir()
const receiver = createReceiver()
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  await receiver.close()
  temp.cleanup()
})

async function start(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const child = fork(CHILD, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PULSE_DATA_DIR: temp.dir, ...env },
  })
  children.push(child)
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port))
    child.once('exit', (code) => reject(new Error(`child exited with ${code}`)))
  })
  return { child, base: `http://127.0.0.1:${port}` }
}

const killed = (child: ChildProcess) =>
  new Promise<NodeJS.Signals | null>((resolve) => {
    child.once('exit', (_code, signal) => resolve(signal))
    child.kill('SIGKILL')
  })

/** A loopback port nobody listens on (yet): the receiver comes up there later. */
async function freePort(): Promise<number> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

async function deliveries(base: string): Promise<DeliveryRecord[]> {
  return (await (await fetch(`${base}/api/notifications/deliveries`)).json()) as DeliveryRecord[]
}

/** Poll the delivery log until `predicate` holds (the sender runs on its own timer). */
async function waitFor(base: string, predicate: (rows: DeliveryRecord[]) => boolean) {
  for (;;) {
    const rows = await deliveries(base)
    if (predicate(rows)) return rows
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const ALERTS = 5
/** Enough alerts in one poll for the storm path (notify/storm.ts STORM_EVENTS). */
const STORM = 150

async function total(base: string, query: string): Promise<number> {
  const res = await fetch(`${base}/api/notifications/deliveries?${query}`)
  return Number(res.headers.get('x-total-count'))
}

describe('kill -9 with notifications in the outbox', () => {
  it('delivers every accepted notification after a restart, none under a second key', async () => {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/hook`
    const first = await start({ NOTIFY_CHILD_RAISE: String(ALERTS), NOTIFY_CHILD_URL: url })
    // Accepted and attempted against the receiver that is down.
    const before = await waitFor(
      first.base,
      (rows) => rows.length === ALERTS && rows.every((r) => r.attempts >= 1),
    )
    expect(
      before.every(
        (r) => r.status === 'failed' && /ECONNREFUSED|fetch failed/.test(r.lastError ?? ''),
      ),
    ).toBe(true)
    expect(await killed(first.child)).toBe('SIGKILL')

    await receiver.listen(port)
    const second = await start({ NOTIFY_CHILD_URL: url })
    const after = await waitFor(second.base, (rows) => rows.every((r) => r.status === 'sent'))
    expect(after).toHaveLength(ALERTS)

    const alertIds = new Set(before.map((r) => r.alertIds[0]))
    const arrived = receiver.received.flatMap((r) => r.batch.events.map((e) => e.alert.id))
    expect(new Set(arrived)).toEqual(alertIds)
    // Every alert's notification arrived under one key only, however often it was sent.
    const keysPerAlert = new Map<string, Set<string>>()
    for (const r of receiver.received)
      for (const e of r.batch.events)
        keysPerAlert.set(e.alert.id, (keysPerAlert.get(e.alert.id) ?? new Set()).add(r.key))
    for (const keys of keysPerAlert.values()) expect(keys.size).toBe(1)
  })

  it(
    'delivers a storm planned by the worker when the kill came before the first claim',
    { timeout: 120_000 },
    async () => {
      const storm = createReceiver()
      try {
        const url = await storm.listen()
        // Ready once the storm is in the outbox; the sender never ran.
        const first = await start({
          NOTIFY_CHILD_RAISE: String(STORM),
          NOTIFY_CHILD_URL: url,
          NOTIFY_CHILD_HOLD: '1',
        })
        expect(await total(first.base, 'status=pending')).toBe(STORM)
        expect(storm.received).toEqual([])
        expect(await killed(first.child)).toBe('SIGKILL')

        const second = await start({ NOTIFY_CHILD_URL: url })
        for (;;) {
          if ((await total(second.base, 'status=sent')) === STORM) break
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        expect(await total(second.base, '')).toBe(STORM)
        const arrived = storm.received.flatMap((r) => r.batch.events.map((e) => e.alert.id))
        expect(arrived).toHaveLength(STORM)
        expect(new Set(arrived).size).toBe(STORM)
      } finally {
        await storm.close()
      }
    },
  )
})

describe('kill -9 with silences (issue 28)', () => {
  it('keeps a silence created and one ended before the kill', async () => {
    const url = `http://127.0.0.1:${await freePort()}/hook`
    const first = await start({ NOTIFY_CHILD_URL: url })
    const create = (target: object) =>
      fetch(`${first.base}/api/alerts/silences`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ target, durationMinutes: 60, comment: 'maintenance' }),
      }).then(async (res) => {
        expect(res.status).toBe(201)
        return ((await res.json()) as { id: string }).id
      })
    const kept = await create({ kind: 'node', instance: 'lab', node: 'pve3' })
    const ended = await create({ kind: 'tag', tag: 'db' })
    const del = await fetch(`${first.base}/api/alerts/silences/${ended}`, { method: 'DELETE' })
    expect(del.status).toBe(200)
    expect(await killed(first.child)).toBe('SIGKILL')

    const second = await start({ NOTIFY_CHILD_URL: url })
    const list = (await (await fetch(`${second.base}/api/alerts/silences`)).json()) as Array<{
      id: string
      state: string
      comment: string
    }>
    expect(list.map((s) => [s.id, s.state, s.comment])).toEqual([
      [ended, 'ended', 'maintenance'],
      [kept, 'active', 'maintenance'],
    ])
  })
})
