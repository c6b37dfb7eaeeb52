// A custom rule's email and webhook switches (spec 001 §3 Alert rule notifications; issue 28 item
// 2): the channels the rule deciding an alert's guest turns off. The dispatcher marks each event
// with them and the policy suppresses those destinations ('rule'). Only guest alerts have a rule.
//
// Cost: nothing when no enabled rule turns a channel off (the usual config). Otherwise the guests
// are indexed by id once per published state (the lists keep their identity between polls that
// changed no guest), and the rule of each event's guest is asked of the same resolver the engine
// uses, so the answer is the engine's.
import type { Alert, AlertConfig } from '../../shared/model/alerts.ts'
import type { ChannelsOff } from '../../shared/model/notifications.ts'
import type { Guest, State } from '../../shared/model/state.ts'
import { getThresholdResolver } from '../../shared/views/alert-thresholds.ts'

export interface RuleChannelsDeps {
  config: () => AlertConfig
  /** The live state the engine evaluated last; null before the first poll. */
  state: () => State | null
}

/** The channels off for an alert, or undefined when its rule (if any) sends everywhere. */
export function createRuleChannels(
  deps: RuleChannelsDeps,
): (alert: Alert) => ChannelsOff | undefined {
  let indexed: { vms: Guest[]; containers: Guest[]; byId: Map<string, Guest> } | null = null
  const guestOf = (state: State, id: string): Guest | undefined => {
    if (indexed?.vms !== state.vms || indexed.containers !== state.containers) {
      const byId = new Map<string, Guest>()
      for (const guest of state.vms) byId.set(guest.id, guest)
      for (const guest of state.containers) byId.set(guest.id, guest)
      indexed = { vms: state.vms, containers: state.containers, byId }
    }
    return indexed.byId.get(id)
  }
  const anyOff = new WeakMap<AlertConfig, boolean>()
  return (alert) => {
    const config = deps.config()
    let off = anyOff.get(config)
    if (off === undefined) {
      off = config.customRules.some((r) => r.enabled && offOf(r.notifications) !== undefined)
      anyOff.set(config, off)
    }
    if (!off) return undefined
    const state = deps.state()
    if (!state) return undefined
    const guest = guestOf(state, alert.resourceId)
    if (!guest) return undefined
    const resolver = getThresholdResolver(config)
    const at = resolver.matchRule(guest)
    return at < 0 ? undefined : offOf(resolver.rules[at]!.rule.notifications)
  }
}

function offOf(notifications: AlertConfig['customRules'][number]['notifications']) {
  const off: ChannelsOff = {}
  if (notifications?.email?.enabled === false) off.email = true
  if (notifications?.webhook?.enabled === false) off.webhook = true
  return off.email || off.webhook ? off : undefined
}
