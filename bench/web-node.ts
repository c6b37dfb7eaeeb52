// A web node for the web fan-out bench, in its own process (as on its own machine): the bus, a
// LiveReplica whose publications feed the hub and /ws, composed the way PULSE_ROLE=web composes
// them (replica.live -> hub). No HTTP forwarding and no /ws admission by
// the collector: neither is on the path of a published delta. Prints {"port":N} once listening.
import Fastify from 'fastify'
import fastifyWebsocket from '@fastify/websocket'
import { createLiveReplica } from '../src/server/bus/live-replica.ts'
import { connectBus } from '../src/server/bus/nats-bus.ts'
import { registerSocketRoute } from '../src/server/http/socket.ts'
import { createHub, type Hub } from '../src/server/hub/hub.ts'

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined }
const natsUrl = process.env.NATS_URL
if (!natsUrl) throw new Error('NATS_URL is required')

const bus = await connectBus({ url: natsUrl, name: 'bench-web-node', log: quiet })
const hubRef: { current?: Hub } = {}
const replica = createLiveReplica({
  bus,
  log: quiet,
  version: 'bench',
  clientCount: () => hubRef.current?.clientCount() ?? 0,
  onEvent: (type, data) => hubRef.current?.broadcast(type, data),
})
const hub = createHub({ live: replica.live, now: Date.now, version: 'bench', log: quiet })
hubRef.current = hub
const http = Fastify({ logger: false })
await http.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } })
registerSocketRoute(http, hub)
await http.listen({ port: 0, host: '127.0.0.1' })
const address = http.server.address()
console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }))

const shutdown = () => {
  replica.stop()
  hub.close()
  void http
    .close()
    .then(() => bus.close())
    .then(() => process.exit(0))
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
