// Browser side of the scripted server's control channel (see scripted-ws-server.ts).
import type { StateDelta } from '../../../src/shared/model/messages.ts'

export interface ServerStats {
  connections: number
  connectionsTotal: number
  resyncs: number
  pings: number
}

export interface Control {
  reset(): Promise<void>
  update(delta: StateDelta): Promise<void>
  gap(delta: StateDelta): Promise<void>
  closeClients(code: number, reason: string): Promise<void>
  sendMalformed(): Promise<void>
  /** Send these text frames verbatim to every worker socket, in order. */
  send(frames: string[]): Promise<void>
  stats(): Promise<ServerStats>
  close(): void
}

/** Open the control channel; commands run one at a time and resolve on the server's ack. */
export async function openControl(port: number): Promise<Control> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/control`)
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve()
    socket.onerror = () => reject(new Error('control channel failed'))
  })
  let stats: ServerStats | null = null
  let waiting: (() => void) | null = null
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { type: string; data?: ServerStats }
    if (message.type === 'test:stats') stats = message.data ?? null
    if (message.type === 'ack') waiting?.()
  }
  const command = (message: Record<string, unknown>) =>
    new Promise<void>((resolve) => {
      waiting = resolve
      socket.send(JSON.stringify(message))
    })
  return {
    reset: () => command({ type: 'test:reset' }),
    update: (delta) => command({ type: 'test:update', delta }),
    gap: (delta) => command({ type: 'test:gap', delta }),
    closeClients: (code, reason) => command({ type: 'test:close', code, reason }),
    sendMalformed: () => command({ type: 'test:malformed' }),
    send: (frames) => command({ type: 'test:send', frames }),
    async stats() {
      await command({ type: 'test:stats' })
      return stats!
    },
    close: () => socket.close(),
  }
}
