// Which URL a configured PVE endpoint is polled at, and where to go when it stops answering: the
// other online members of its cluster at https://<member ip>:<configured port>, with the same
// credentials and TLS settings. Pure decisions; the poller does the I/O.
//
// A pinned fingerprint belongs to one host: members of a real cluster have their own
// certificates, so with a pin they answer PVE_TLS_MISMATCH, which the poller reports as such.
import { AppError } from '../../shared/model/errors.ts'
import type { ClusterEndpointView } from '../../shared/model/node-config.ts'
import type { ClusterInfo } from './pve-cluster.ts'

/** The failover state of one configured endpoint. */
export interface FailoverState {
  readonly configuredUrl: string
  /** The URL the last successful poll used. */
  activeUrl: string
  /** The cluster node behind the configured URL, once /cluster/status told us. */
  configuredMember?: string
  /** A background probe found the configured URL answering again. */
  homeAnswered: boolean
  /** Cycle of the last probe of the configured URL. */
  probedCycle: number
}

/** Creates the state of an endpoint that starts on its configured URL. */
export function createFailoverState(configuredUrl: string): FailoverState {
  return { configuredUrl, activeUrl: configuredUrl, homeAnswered: false, probedCycle: -Infinity }
}

/** True for errors that mean "this host does not answer", the only ones worth failing over for. */
export function isFailoverError(err: unknown): boolean {
  return err instanceof AppError && (err.code === 'PVE_UNREACHABLE' || err.code === 'PVE_TIMEOUT')
}

/** https://<ip>:<port of the configured URL>; undefined when the configured URL is not a URL. */
export function memberUrl(configuredUrl: string, ip: string): string | undefined {
  let url: URL
  try {
    url = new URL(configuredUrl)
  } catch {
    return undefined
  }
  const host = ip.includes(':') ? `[${ip}]` : ip
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`
}

/**
 * URLs to try this cycle, best first, at most `max`: the configured URL when a probe found it
 * back, else the active one; then the other online members (rotated by cycle so that, with many
 * members, each gets its turn), and the configured URL last.
 */
export function planAttempts(
  state: FailoverState,
  cluster: ClusterInfo | undefined,
  cycle: number,
  max: number,
): string[] {
  const first = state.homeAnswered ? state.configuredUrl : state.activeUrl
  const members: string[] = []
  for (const member of cluster?.isCluster ? cluster.members : []) {
    if (!member.online || !member.ip || member.name === state.configuredMember) continue
    const url = memberUrl(state.configuredUrl, member.ip)
    if (url) members.push(url)
  }
  const shift = members.length > 0 ? cycle % members.length : 0
  const rotated = [...members.slice(shift), ...members.slice(0, shift)]
  const all = [first, state.activeUrl, ...rotated, state.configuredUrl]
  // One try per host even when the configured URL is a member's IP written slightly differently.
  const seen = new Set<string>()
  const out: string[] = []
  for (const url of all) {
    const key = originOf(url)
    if (seen.has(key)) continue
    seen.add(key)
    out.push(url)
  }
  return out.slice(0, Math.max(1, max))
}

function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}

/** Whether to probe the configured URL in the background this cycle (only while away from it). */
export function shouldProbeHome(state: FailoverState, cycle: number, every: number): boolean {
  return state.activeUrl !== state.configuredUrl && cycle - state.probedCycle >= every
}

/** What changed when `url` answered: for logging. */
export type FailoverChange = 'failed-over' | 'moved' | 'returned' | undefined

/** Records a successful poll at `url`. */
export function recordAnswer(state: FailoverState, url: string): FailoverChange {
  const before = state.activeUrl
  state.activeUrl = url
  if (url === before) return undefined
  if (url === state.configuredUrl) return 'returned'
  return before === state.configuredUrl ? 'failed-over' : 'moved'
}

/** How one cycle of an endpoint ended. */
export type FailoverOutcome =
  { ok: true; url: string; change: FailoverChange } | { ok: false; failures: AppError[] }

/**
 * Polls the planned URLs in order until one answers, within one cycle. Only "does not answer"
 * errors of the first URL lead to the others: a rejected token is the same on every member.
 */
export async function pollWithFailover(
  state: FailoverState,
  attempts: readonly string[],
  poll: (url: string) => Promise<void>,
  onMemberFailure: (url: string, err: AppError) => void,
): Promise<FailoverOutcome> {
  const failures: AppError[] = []
  // A probe's good news is used once: if the configured URL fails again, wait for the next probe.
  if (attempts[0] === state.configuredUrl) state.homeAnswered = false
  for (const url of attempts) {
    try {
      await poll(url)
      return { ok: true, url, change: recordAnswer(state, url) }
    } catch (err) {
      const appError = asAppError(url, err)
      failures.push(appError)
      if (url !== state.activeUrl) onMemberFailure(url, appError)
      if (failures.length === 1 && !isFailoverError(appError)) break
    }
  }
  return { ok: false, failures }
}

function asAppError(url: string, err: unknown): AppError {
  if (err instanceof AppError) return err
  return new AppError('PVE_UNREACHABLE', { host: url, reason: 'internal error' }, { cause: err })
}

/**
 * The endpoint's error text: why the first URL failed, then the members' failures, so that a
 * pinned fingerprint which only fits the configured host reads as such.
 */
export function describeFailures(failures: readonly AppError[]): string {
  const [first, ...others] = failures
  if (!first) return 'No URL to poll.'
  if (others.length === 0) return first.userMessage
  return `${first.userMessage} Other cluster members: ${others.map((e) => e.userMessage).join(' ')}`
}

/** Learns which member the configured URL is, from /cluster/status read through `url`. */
export function learnLocalMember(state: FailoverState, url: string, member: string): void {
  if (url === state.configuredUrl) state.configuredMember = member
}

/**
 * One cluster member as the node API shows it (its wire shape, PascalCase). Host is the URL we
 * would poll it at: the configured URL for the configured member.
 */
export type EndpointMember = ClusterEndpointView

/** Cluster identity and the URL in use, per configured endpoint. */
export interface EndpointInfo {
  configuredUrl: string
  activeUrl: string
  isCluster: boolean
  clusterName: string
  members: EndpointMember[]
}

/** Builds the node API's view of an endpoint. */
export function toEndpointInfo(state: FailoverState, cluster: ClusterInfo): EndpointInfo {
  return {
    configuredUrl: state.configuredUrl,
    activeUrl: state.activeUrl,
    isCluster: cluster.isCluster,
    clusterName: cluster.clusterName,
    members: cluster.members.map((m) => {
      const host =
        m.name === state.configuredMember
          ? state.configuredUrl
          : m.ip
            ? memberUrl(state.configuredUrl, m.ip)
            : undefined
      return { NodeName: m.name, Host: host ?? '', IP: m.ip ?? '', Online: m.online }
    }),
  }
}
