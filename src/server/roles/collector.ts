// PULSE_ROLE=collector: the whole app (SQLite, routes, its own port for local administration)
// plus the bus, gated by the group's lease (README "Running on several machines").
//
// Every collector of a group builds everything, but only the lease holder works: it polls,
// evaluates alerts, runs the escalation and notification timers, publishes the live state and
// socket events, and answers the web nodes (pulse.http, pulse.ws.admit, pulse.snapshot). A
// standby does none of it, so no web node can reach a stale view and no notification is sent by
// two. The responders join a queue group, so serving only while active is what keeps a web node's
// request on the active collector.
//
// Winning: reload what the previous holder stored (nodes, alert config, active alerts, allowed
// origins and embedding; the
// outbox's unfinished rows are sent by the sender with their original Idempotency-Key), poll,
// and publish under a new epoch once the first poll is in, so web nodes resynchronise onto a
// full estate rather than an empty one. Losing: stop all of it at once and stay a standby.
import type { App, BuildOptions } from '../app.ts'
import { buildApp } from '../app.ts'
import { REVOCATION_EVENT } from '../auth/socket-registry.ts'
import type { Bus } from '../bus/bus.ts'
import { serveForwardedHttp } from '../bus/http-serve.ts'
import { createLivePublisher, type LivePublisher } from '../bus/live-publisher.ts'
import { connectBus } from '../bus/nats-bus.ts'
import type { LiveState } from '../live/live-state.ts'

/** The lease key of a collector group (KV key characters; the group name is validated). */
export function collectorLeaseKey(group: string): string {
  return `collector.${group}`
}

export interface CollectorRole {
  app: App
  bus: Bus
  /** True while this collector holds the lease (and so does the work). */
  active(): boolean
  /** The epoch it publishes under while active, null as a standby or before the first poll. */
  epoch(): string | null
  /** Stop working, give the lease up at once (a standby takes over), close the app and bus. */
  close(): Promise<void>
}

export interface CollectorRoleOptions extends Omit<BuildOptions, 'health'> {
  /** Run once the app is built, before contending for the lease (the demo starts its simulator). */
  prepare?: (app: App) => Promise<void>
  /** Run on every win before polling (the demo registers its simulated endpoints). */
  onActive?: () => void
  /** Overrides the publisher's heartbeat (tests). */
  heartbeatMs?: number
}

/** Resolve at the next publication of `live`, or after `timeoutMs` (an estate that is empty). */
function nextPublication(live: LiveState, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      unsubscribe()
      resolve()
    }
    const timer = setTimeout(done, timeoutMs)
    const unsubscribe = live.subscribe(done)
  })
}

/** Build the app and contend for the group's lease; resolves once the bus is connected. */
export async function startCollectorRole(options: CollectorRoleOptions): Promise<CollectorRole> {
  const { cluster } = options.config
  if (!cluster.natsUrl) throw new Error('NATS_URL is required when PULSE_ROLE is collector')
  const id = cluster.instanceId
  const ref: { lease?: ReturnType<Bus['lease']>; bus?: Bus } = {}
  const app = await buildApp({
    ...options,
    // Degraded while NATS is down: the collector can neither publish nor answer the web nodes.
    health: () => {
      const connected = ref.bus?.connected() ?? false
      return {
        ...(connected ? {} : { status: 'degraded' }),
        role: 'collector',
        active: ref.lease?.held() ?? false,
        instance: id,
        bus: { connected },
      }
    },
    standby: () => !(ref.lease?.held() ?? false),
  })
  const log = app.http.log
  // The notification dispatcher starts with the app (escalation timer included): a standby must
  // not run it.
  await app.stopPolling()
  let bus: Bus
  try {
    await options.prepare?.(app)
    bus = await connectBus({ url: cluster.natsUrl, name: `pulse-collector-${id}`, log })
    ref.bus = bus
  } catch (err) {
    await app.close()
    throw err
  }

  let generation = 0
  let served: { stop(): void } | null = null
  let publisher: LivePublisher | null = null
  let untap: (() => void) | null = null
  // Web nodes hold most sockets: a revoked token, ended session or changed user reaches them on
  // the live stream (never a browser: roles/web.ts takes it off), as the collector's own close.
  app.auth.sockets.onRevoke((revocation) => publisher?.publishEvent(REVOCATION_EVENT, revocation))
  let stopping: Promise<void> = Promise.resolve()

  // Synchronous first, so nothing more reaches the bus from the moment the lease is gone.
  const fence = () => {
    untap?.()
    publisher?.stop()
    served?.stop()
    untap = publisher = served = null
    stopping = app.stopPolling().catch((err: unknown) => {
      log.error({ err }, 'stopping the collector work failed')
    })
    return stopping
  }

  const activate = async (mine: number) => {
    await stopping
    if (mine !== generation) return
    log.info({ instance: id, group: cluster.collectorGroup }, 'collector active')
    served = serveForwardedHttp(app.http, bus)
    try {
      options.onActive?.()
      app.alerts.reload()
      app.reloadStored()
      // Sets the poller's endpoints from SQLite and starts the first poll.
      app.nodes.reload()
    } catch (err) {
      log.error({ err }, 'loading the shared state on takeover failed')
    }
    app.startPolling()
    await nextPublication(app.live, Math.min(10_000, cluster.leaseTtlMs / 2))
    if (mine !== generation) return
    const next = createLivePublisher({
      bus,
      live: app.live,
      collectorId: id,
      heartbeatMs: options.heartbeatMs,
      log,
    })
    publisher = next
    untap = app.onBroadcast((type, data) => next.publishEvent(type, data))
  }

  let closing: Promise<void> | null = null
  const lease = bus.lease(collectorLeaseKey(cluster.collectorGroup), id, cluster.leaseTtlMs)
  ref.lease = lease
  lease.onChange((held) => {
    const mine = ++generation
    if (held) {
      void activate(mine).catch((err: unknown) => log.error({ err }, 'taking over failed'))
    } else {
      if (!closing) log.warn({ instance: id }, 'collector lost the lease; standing by')
      void fence()
    }
  })

  return {
    app,
    bus,
    active: () => lease.held(),
    epoch: () => publisher?.epoch ?? null,
    close: () =>
      (closing ??= (async () => {
        generation++
        await publisher?.flushed()
        await fence()
        await lease.release()
        await app.close()
        await bus.close()
      })()),
  }
}
