// Per-node guest routes: lists, status/current, snapshots, container interfaces and the three
// guest-agent reads. Guests are looked up by vmid in O(1); a guest whose config lives on another
// node fails as its missing config file, exactly like PVE.

import { wrapData } from './reply.ts'
import {
  renderGuestList,
  renderLxcInterfaces,
  renderLxcStatus,
  renderQemuStatus,
  renderSnapshots,
} from './render-guests.ts'
import { renderFsinfo, renderNetworkInterfaces, renderOsinfo } from './render-agent.ts'
import { guestProfile } from './guest-profile.ts'
import { PveError, optionalBoolean, resolveGuest, resolveNode } from './route-kit.ts'
import type { DelayedReply, Route, RouteKit } from './route-kit.ts'
import type { SimGuest } from './model.ts'

const AGENT_COMMANDS = ['get-fsinfo', 'network-get-interfaces', 'get-osinfo'] as const
type AgentCommand = (typeof AGENT_COMMANDS)[number]

/** Routes under /nodes/{node}/qemu and /nodes/{node}/lxc. */
export function guestRoutes(kit: RouteKit): Route[] {
  const { cluster, cached } = kit
  return [
    {
      pattern: /^\/nodes\/([^/]+)\/(qemu|lxc)$/,
      params: ['full'],
      handle({ match, query }) {
        const node = resolveNode(cluster, match[1])
        const type = match[2] as 'qemu' | 'lxc'
        const full = type === 'qemu' && (optionalBoolean(query, 'full') ?? false)
        return cached(`list:${type}:${node}:${full}`, () =>
          renderGuestList(cluster, node, type, full),
        )
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/(qemu|lxc)\/([^/]+)\/status\/current$/,
      params: [],
      handle({ match }) {
        const guest = findGuest(kit, match)
        return wrapData(
          guest.type === 'qemu'
            ? renderQemuStatus(cluster, guest)
            : renderLxcStatus(cluster, guest),
        )
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/(qemu|lxc)\/([^/]+)\/snapshot$/,
      params: [],
      handle: ({ match }) => wrapData(renderSnapshots(cluster, findGuest(kit, match))),
    },
    {
      pattern: /^\/nodes\/([^/]+)\/(lxc)\/([^/]+)\/interfaces$/,
      params: [],
      handle: ({ match }) => wrapData(renderLxcInterfaces(cluster, findGuest(kit, match))),
    },
    {
      pattern: new RegExp(`^/nodes/([^/]+)/(qemu)/([^/]+)/agent/(${AGENT_COMMANDS.join('|')})$`),
      params: [],
      handle: ({ match }) => agentReply(kit, findGuest(kit, match), match[4] as AgentCommand),
    },
  ]
}

function findGuest(kit: RouteKit, match: RegExpExecArray): SimGuest {
  const node = resolveNode(kit.cluster, match[1])
  return resolveGuest(kit.cluster, node, match[2] as 'qemu' | 'lxc', match[3])
}

/**
 * Answers an agent read in PVE's order of checks: permission (PVE 9 only), agent configured, VM
 * running, agent running; then the agent answers, answers slowly, or hangs until PVE times out.
 */
function agentReply(kit: RouteKit, guest: SimGuest, command: AgentCommand): Buffer | DelayedReply {
  const { cluster } = kit
  const profile = guestProfile(cluster, guest)
  if (profile.agentForbidden) {
    throw new PveError(403, `Permission check failed (/vms/${guest.vmid}, VM.GuestAgent.Audit)`)
  }
  if (profile.agent === 'none') throw new PveError(500, 'No QEMU guest agent configured')
  if (!guest.running) throw new PveError(500, `VM ${guest.vmid} is not running`)
  if (profile.agent === 'not-running') throw new PveError(500, 'QEMU guest agent is not running')
  const answer = (): Buffer => {
    // The guest may have stopped or vanished while the call was pending.
    const current = cluster.byVmid.get(guest.vmid)
    if (current === undefined || !current.running)
      throw new PveError(500, `VM ${guest.vmid} is not running`)
    return wrapData({ result: agentResult(kit, current, command) })
  }
  if (profile.agent === 'hang') {
    return {
      delayMs: kit.agentTimeoutMs,
      reply: () => {
        throw new PveError(
          500,
          `VM ${guest.vmid} qmp command 'guest-${command}' failed - got timeout`,
        )
      },
    }
  }
  if (profile.agent === 'slow')
    return { delayMs: Math.round(kit.agentTimeoutMs / 4), reply: answer }
  return answer()
}

function agentResult(kit: RouteKit, guest: SimGuest, command: AgentCommand): unknown {
  const profile = guestProfile(kit.cluster, guest)
  if (command === 'get-fsinfo') return renderFsinfo(kit.cluster, guest, profile)
  if (command === 'network-get-interfaces')
    return renderNetworkInterfaces(kit.cluster, guest, profile)
  return renderOsinfo(profile)
}
