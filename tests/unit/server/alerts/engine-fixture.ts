// Small live states for the alert engine tests, and a poll driver that threads the engine state.
import type { AlertConfig } from '../../../../src/shared/model/alerts.ts'
import {
  createEmptyState,
  type Guest,
  type PveNode,
  type State,
} from '../../../../src/shared/model/state.ts'
import { createDefaultAlertConfig } from '../../../../src/server/alerts/config-defaults.ts'
import { evaluate } from '../../../../src/server/alerts/evaluate.ts'
import {
  createEngineState,
  type EngineState,
  type Transition,
} from '../../../../src/server/alerts/engine-types.ts'

export const T0 = 1_760_000_000_000
export const MB = 1_048_576

export function makeGuest(vmid: number, patch: Partial<Guest> = {}): Guest {
  return {
    id: `lab-pve1-${vmid}`,
    instance: 'lab',
    node: 'pve1',
    vmid,
    name: `guest${vmid}`,
    type: 'qemu',
    status: 'running',
    uptime: 1000,
    cpu: 0.1,
    cpus: 2,
    memory: { usage: 40, used: 4, total: 10 },
    disk: { usage: 30, used: 3, total: 10 },
    diskRead: 0,
    diskWrite: 0,
    networkIn: 0,
    networkOut: 0,
    tags: [],
    template: false,
    ...patch,
  }
}

export function makeNode(name = 'pve1', patch: Partial<PveNode> = {}): PveNode {
  return {
    id: `lab-${name}`,
    name,
    displayName: name,
    host: 'https://pve1:8006',
    instance: 'lab',
    status: 'online',
    type: 'pve',
    uptime: 1000,
    cpu: 0.2,
    memory: { usage: 30, used: 3, total: 10 },
    disk: { usage: 20, used: 2, total: 10 },
    cpuInfo: { cores: 8 },
    pveVersion: 'pve-manager/8.3.1',
    isClusterMember: false,
    clusterName: '',
    ...patch,
  }
}

export function makeState(patch: Partial<State> = {}, at = T0): State {
  return {
    ...createEmptyState(at, 'test'),
    nodes: [makeNode()],
    connectionHealth: { lab: true },
    lastUpdate: at,
    ...patch,
  }
}

/** A config with no delays, so a crossing fires on the poll that sees it. */
export function instantConfig(patch: Partial<AlertConfig> = {}): AlertConfig {
  const config = createDefaultAlertConfig()
  config.timeThresholds = { guest: 0, node: 0, storage: 0, pbs: 0 }
  config.timeThreshold = 0
  config.flapping.enabled = false
  return { ...config, ...patch }
}

/** Threads the engine state through successive polls, one every 10 s from T0. */
export class Driver {
  engine: EngineState = createEngineState()
  time = T0
  last: Transition[] = []
  constructor(public config: AlertConfig = instantConfig()) {}

  /** Evaluate `state` as the next poll (lastUpdate = the poll time). */
  poll(state: State, at = this.time): Transition[] {
    this.time = at
    const result = evaluate({ ...state, lastUpdate: at }, this.config, at, this.engine)
    this.engine = result.next
    this.time = at + 10_000
    return (this.last = result.transitions)
  }

  /** Evaluate the same poll again (a config save). */
  save(state: State, config: AlertConfig): Transition[] {
    this.config = config
    const at = this.engine.lastPoll
    const result = evaluate({ ...state, lastUpdate: at }, config, at + 1_000, this.engine)
    this.engine = result.next
    return (this.last = result.transitions)
  }

  active(id: string) {
    return this.engine.active.get(id)
  }
  ids(): string[] {
    return [...this.engine.active.keys()].sort()
  }
}

export const kinds = (transitions: readonly Transition[]) =>
  transitions.map((t) => `${t.kind}:${t.alert.id}${t.kind === 'resolved' ? `:${t.reason}` : ''}`)
