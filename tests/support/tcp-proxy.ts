// A loopback TCP proxy that can be frozen: connections stay open but no byte passes, the way a
// network partition looks to both ends (no reset, no close). For lease fencing tests.
import net from 'node:net'

export interface TcpProxy {
  port: number
  /** Stop forwarding in both directions, keeping the connections open. */
  freeze(): void
  close(): Promise<void>
}

/** Proxy 127.0.0.1:<free port> to 127.0.0.1:`targetPort`. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>()
  let frozen = false
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1')
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => undefined)
      socket.on('close', () => sockets.delete(socket))
    }
    client.on('data', (data) => frozen || upstream.write(data))
    upstream.on('data', (data) => frozen || client.write(data))
    client.on('end', () => upstream.end())
    upstream.on('end', () => client.end())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    freeze: () => void (frozen = true),
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
