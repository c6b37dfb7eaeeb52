// A TCP proxy on loopback between a browser and the server that counts what the browser receives:
// every byte with its wall-clock time, per connection, and for /ws connections every message (by
// ws-frames.ts: size, binary or text, `type` and `seq` when present). Exact bytes on the wire,
// without passing 100 MB frame payloads through CDP (Network.webSocketFrameReceived carries them
// whole, which would load the same two cores the page is measured on).
import net from 'node:net'
import { createFrameReader, type ReceivedMessage } from './ws-frames.ts'

/** Wall-clock milliseconds, comparable with a page's `performance.timeOrigin + performance.now()`. */
export const wallNow = (): number => performance.timeOrigin + performance.now()

export interface ProxiedConnection {
  id: number
  /** The request opened a WebSocket (`GET /ws…` answered 101). */
  webSocket: boolean
  path: string
  openedAt: number
  closedAt: number | null
  /** Chunks received from the server: wall time and size. */
  chunks: Array<{ at: number; bytes: number }>
  /** WebSocket messages from the server, `at` in wall time. */
  messages: ReceivedMessage[]
}

export interface ByteProxy {
  url: string
  connections: ProxiedConnection[]
  /** Bytes the browser received from the server in [from, to] (wall ms). */
  bytesBetween(from: number, to: number): number
  close(): Promise<void>
}

/** Starts the proxy in front of `127.0.0.1:{targetPort}`. */
export async function startByteProxy(targetPort: number): Promise<ByteProxy> {
  const connections: ProxiedConnection[] = []
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const conn: ProxiedConnection = {
      id: connections.length,
      webSocket: false,
      path: '',
      openedAt: wallNow(),
      closedAt: null,
      chunks: [],
      messages: [],
    }
    connections.push(conn)
    const upstream = net.connect({ host: '127.0.0.1', port: targetPort })
    sockets.add(client).add(upstream)
    let request = ''
    let response: Buffer | null = Buffer.alloc(0)
    const read = createFrameReader({
      message: (m) => conn.messages.push({ ...m, at: performance.timeOrigin + m.at }),
    })
    client.on('data', (chunk: Buffer) => {
      if (request.length < 512) {
        request += chunk.toString('latin1', 0, Math.min(chunk.length, 512))
        conn.path = /^GET (\S+)/.exec(request)?.[1] ?? conn.path
      }
      upstream.write(chunk)
    })
    upstream.on('data', (chunk: Buffer) => {
      conn.chunks.push({ at: wallNow(), bytes: chunk.length })
      client.write(chunk)
      // Only an upgraded /ws connection carries frames; one request per connection is assumed
      // for it (the browser opens a fresh connection for every WebSocket).
      if (response) {
        response = Buffer.concat([response, chunk])
        const end = response.indexOf('\r\n\r\n')
        if (end < 0) {
          if (response.length > 65_536) response = null
          return
        }
        conn.webSocket = /^HTTP\/1\.1 101/.test(response.toString('latin1', 0, 16))
        const rest = response.subarray(end + 4)
        response = null
        if (conn.webSocket && rest.length > 0) read(rest)
      } else if (conn.webSocket) read(chunk)
    })
    const end = () => {
      conn.closedAt ??= wallNow()
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    client.on('close', end)
    upstream.on('close', end)
    client.on('error', end)
    upstream.on('error', end)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    connections,
    bytesBetween(from, to) {
      let sum = 0
      for (const c of connections)
        for (const chunk of c.chunks) if (chunk.at >= from && chunk.at <= to) sum += chunk.bytes
      return sum
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}
