// An acknowledgment answered over HTTP survives the server being killed with SIGKILL: the write is
// a committed SQLite transaction before the answer, not something flushed later.
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { Alert } from '../../../../src/shared/model/alerts.ts'
import { makeTempDir } from '../temp-dir.ts'

const CHILD = fileURLToPath(new URL('./alert-server-child.ts', import.meta.url))
const children: ChildProcess[] = []
const temp = makeTempDir()
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
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

describe('kill -9', () => {
  it('keeps an acknowledgment that was answered', async () => {
    const first = await start({ ALERT_CHILD_RAISE: '1' })
    const [alert] = (await (await fetch(`${first.base}/api/alerts/active`)).json()) as Alert[]
    expect(alert).toBeDefined()
    const res = await fetch(`${first.base}/api/alerts/${alert!.id}/acknowledge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'night-shift' }),
    })
    expect(await res.json()).toEqual({ success: true })
    expect(await killed(first.child)).toBe('SIGKILL')

    const second = await start({})
    const after = (await (await fetch(`${second.base}/api/alerts/active`)).json()) as Alert[]
    expect(after).toEqual([
      expect.objectContaining({ id: alert!.id, acknowledged: true, ackUser: 'night-shift' }),
    ])
  })
})
