// Pulse's own figures as Prometheus families (prefix pulse_): active alerts by level and type, the
// notification queue and its dead letters, each endpoint's polls, socket clients, the build. Small
// and cheap (a few dozen series, one pass over the active alerts): built fresh on every scrape.
import type { State } from '../../shared/model/state.ts'
import { escapeLabelValue, Family, labelsOf, writeFamilies } from './exposition.ts'

/** One configured endpoint as the poller sees it. */
export interface EndpointFigures {
  name: string
  type: 'pve' | 'pbs'
  status: 'pending' | 'connected' | 'error'
  /** Absent before its first poll finished. */
  polls?: { polls: number; failures: number; lastSeconds: number }
}

export interface ProcessFigures {
  state: State
  version: string
  socketClients: number
  /** Outbox rows still to send; dead letters kept, per destination kind. */
  queued: number
  dead: ReadonlyArray<{ kind: string; count: number }>
  endpoints: readonly EndpointFigures[]
}

/** The pulse_ families as text parts. */
export function processMetricParts(figures: ProcessFigures): Buffer[] {
  const { state } = figures
  const build = new Family('pulse_build_info', 'gauge', 'The running Pulse version.')
  build.add(labelsOf([['version', figures.version]]), 1)

  const alerts = new Family(
    'pulse_alerts_active',
    'gauge',
    'Active alerts (as the dashboard lists them) by level and type.',
  )
  const counts = new Map<string, { level: string; type: string; count: number }>()
  for (const alert of state.activeAlerts) {
    const level = String(alert.level ?? '')
    const type = String(alert.type ?? '')
    const key = `${level}\n${type}`
    const entry = counts.get(key)
    if (entry) entry.count++
    else counts.set(key, { level, type, count: 1 })
  }
  for (const { level, type, count } of counts.values()) {
    alerts.add(
      labelsOf([
        ['level', level],
        ['type', type],
      ]),
      count,
    )
  }

  const queued = new Family(
    'pulse_notifications_queued',
    'gauge',
    'Notifications waiting to be sent or retried (outbox rows pending or failed).',
  )
  queued.add('', figures.queued)
  const dead = new Family(
    'pulse_notification_dead_letters',
    'gauge',
    'Notifications given up after their last attempt, kept in the outbox (30 days), by destination kind.',
  )
  for (const { kind, count } of figures.dead) dead.add(labelsOf([['kind', kind]]), count)

  const up = new Family(
    'pulse_endpoint_up',
    'gauge',
    'Whether the last poll of the endpoint succeeded (absent until its first poll).',
  )
  const duration = new Family(
    'pulse_poll_duration_seconds',
    'gauge',
    'Wall time of the last poll of the endpoint, in seconds.',
  )
  const polls = new Family(
    'pulse_polls_total',
    'counter',
    'Polls of the endpoint since the poller started.',
  )
  const failures = new Family(
    'pulse_poll_failures_total',
    'counter',
    'Polls of the endpoint that failed since the poller started.',
  )
  for (const endpoint of figures.endpoints) {
    const labels = `{endpoint="${escapeLabelValue(endpoint.name)}",type="${endpoint.type}"}`
    if (endpoint.status !== 'pending') up.add(labels, endpoint.status === 'connected' ? 1 : 0)
    if (!endpoint.polls) continue
    duration.add(labels, endpoint.polls.lastSeconds)
    polls.add(labels, endpoint.polls.polls)
    failures.add(labels, endpoint.polls.failures)
  }
  const cycle = new Family(
    'pulse_poll_cycle_duration_seconds',
    'gauge',
    'Wall time of the last poll cycle over every endpoint, in seconds.',
  )
  const last = new Family(
    'pulse_last_poll_timestamp_seconds',
    'gauge',
    'When the last poll cycle completed, in seconds since the epoch.',
  )
  if (state.stats.pollingCycles > 0) cycle.add('', state.performance.lastPollDuration)
  if (state.lastUpdate > 0) last.add('', state.lastUpdate / 1000)

  const clients = new Family(
    'pulse_socket_clients',
    'gauge',
    'Browsers and clients connected to the live socket (/ws).',
  )
  clients.add('', figures.socketClients)

  const out: Buffer[] = []
  writeFamilies(out, [
    build,
    alerts,
    queued,
    dead,
    up,
    duration,
    polls,
    failures,
    cycle,
    last,
    clients,
  ])
  return out
}
