// Listening helpers shared by the PVE and PBS simulators, and the network safety rule: a
// simulator never listens anywhere but loopback.
import type { Server } from 'node:https'
import type { AddressInfo } from 'node:net'

/** Throws unless `host` is an IPv4 address in 127.0.0.0/8. */
export function assertLoopback(host: string): void {
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)
  if (m === null || m.slice(1).some((octet) => Number(octet) > 255)) {
    throw new Error(`Simulator host must be an IPv4 address in 127.0.0.0/8, got '${host}'`)
  }
}

/** Listens on host:port (0 = ephemeral) and resolves with the port. */
export function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

/** Closes a server, dropping keep-alive connections that would otherwise hold close() open. */
export function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve()
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
