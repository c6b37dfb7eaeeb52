// A real `ws` server (Node side of the browser tier) with a small scripted protocol, so that
// browser tests can drive a real worker's socket through closes, gaps and resyncs.
//
// Data clients connect to any path but /control; `?deltas=1` or `2` gets delta mode (welcome with deltas,
// initialState with seq, then sequence-numbered deltas), otherwise full rawData on every change.
// A control client connects to /control and sends:
//   {type:'test:reset'}                       fresh state and counters
//   {type:'test:update', delta}               apply a StateDelta, seq+1, send it to data clients
//   {type:'test:gap', delta}                  apply a StateDelta, seq+1, send it to nobody
//   {type:'test:close', code, reason}         close every data connection
//   {type:'test:malformed'}                   send malformed frames to every data client
//   {type:'test:stats'}                       reply {type:'test:stats', data:{...counters}}
// Every control message is answered with {type:'ack', for:<type>} once done.
import { WebSocketServer, type WebSocket } from 'ws'
import type { AddressInfo } from 'node:net'
import type { StateDelta } from '../../../src/shared/model/messages.ts'
import { applyDelta } from '../../../src/shared/model/delta.ts'
import { createEmptyState, type State } from '../../../src/shared/model/state.ts'

/** The estate every test starts from. */
export function createScriptedState(): State {
  const state = createEmptyState(1_700_000_000_000, 'test-1.0')
  const node = (name: string) => ({
    id: `lab-${name}`,
    name,
    displayName: name,
    host: `https://${name}:8006`,
    instance: 'lab',
    status: 'online' as const,
    type: 'pve' as const,
    uptime: 100_000,
    cpu: 0.2,
    memory: { usage: 30, used: 30, total: 100 },
    disk: { usage: 20, used: 20, total: 100 },
    cpuInfo: { cores: 8 },
    pveVersion: 'pve-manager/8.3.1/x',
    isClusterMember: true,
    clusterName: 'lab',
  })
  const guest = (
    vmid: number,
    name: string,
    nodeName: string,
    type: 'qemu' | 'lxc',
    status: string,
  ) => ({
    id: `lab-${nodeName}-${vmid}`,
    instance: 'lab',
    node: nodeName,
    vmid,
    name,
    type,
    status,
    uptime: status === 'running' ? 90_000 : 0,
    cpu: status === 'running' ? 0.25 : 0,
    cpus: 2,
    memory: { usage: 50, used: 512 * 1024 ** 2, total: 1024 ** 3 },
    disk: { usage: 10, used: 1024 ** 3, total: 10 * 1024 ** 3 },
    diskRead: 0,
    diskWrite: 2 * 1024 * 1024,
    networkIn: 1024,
    networkOut: 0,
    tags: ['prod'],
  })
  state.nodes = [node('pve1'), node('pve2')]
  state.vms = [
    guest(101, 'alpha', 'pve1', 'qemu', 'running'),
    guest(102, 'beta', 'pve2', 'qemu', 'stopped'),
  ]
  state.containers = [guest(201, 'gamma', 'pve2', 'lxc', 'running')]
  state.lastUpdate = 1_700_000_000_000
  return state
}

interface Counters {
  connections: number
  connectionsTotal: number
  resyncs: number
  pings: number
}

/** Start the scripted server on 127.0.0.1 (random port). */
export async function startScriptedServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => server.once('listening', resolve))
  const clients = new Map<WebSocket, { deltas: boolean }>()
  let state = createScriptedState()
  let seq = 0
  let counters: Counters = { connections: 0, connectionsTotal: 0, resyncs: 0, pings: 0 }

  const send = (socket: WebSocket, message: unknown) => socket.send(JSON.stringify(message))
  const sendFull = (socket: WebSocket, deltas: boolean) =>
    send(
      socket,
      deltas ? { type: 'initialState', data: state, seq } : { type: 'rawData', data: state },
    )

  const handleControl = (socket: WebSocket, message: Record<string, unknown>) => {
    switch (message.type) {
      case 'test:reset':
        state = createScriptedState()
        seq = 0
        counters = { connections: clients.size, connectionsTotal: 0, resyncs: 0, pings: 0 }
        break
      case 'test:update':
      case 'test:gap': {
        state = applyDelta(state, message.delta as StateDelta)
        seq++
        if (message.type === 'test:gap') break
        for (const [client, { deltas }] of clients) {
          if (deltas) send(client, { type: 'delta', data: message.delta, seq })
          else sendFull(client, false)
        }
        break
      }
      case 'test:close':
        for (const client of clients.keys())
          client.close(message.code as number, message.reason as string)
        break
      case 'test:malformed':
        for (const client of clients.keys()) {
          client.send('{not json')
          client.send(JSON.stringify({ data: {} }))
          client.send(
            JSON.stringify({ type: 'delta', data: { upsert: { vms: 'x' } }, seq: seq + 1 }),
          )
        }
        break
      case 'test:send':
        // Frames verbatim, in order, to every client: events and malformed messages alike.
        for (const client of clients.keys()) {
          for (const frame of message.frames as string[]) client.send(frame)
        }
        break
      case 'test:stats':
        send(socket, { type: 'test:stats', data: { ...counters, connections: clients.size } })
        break
    }
    send(socket, { type: 'ack', for: message.type })
  }

  server.on('connection', (socket, request) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    if (url.pathname === '/control') {
      socket.on('message', (raw) =>
        handleControl(socket, JSON.parse(String(raw)) as Record<string, unknown>),
      )
      return
    }
    // The worker asks for mode 2; this server speaks its JSON subset (initialState, deltas).
    const deltas = ['1', '2'].includes(url.searchParams.get('deltas') ?? '')
    clients.set(socket, { deltas })
    counters.connectionsTotal++
    socket.on('close', () => clients.delete(socket))
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { type?: string }
      if (message.type === 'ping') {
        counters.pings++
        send(socket, { type: 'pong', data: { timestamp: Date.now() } })
      } else if (message.type === 'resync') {
        counters.resyncs++
        sendFull(socket, true)
      }
    })
    send(socket, {
      type: 'welcome',
      data: deltas ? { message: 'hi', deltas: 1 } : { message: 'hi' },
    })
    sendFull(socket, deltas)
  })

  const { port } = server.address() as AddressInfo
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate()
        server.close(() => resolve())
      }),
  }
}
