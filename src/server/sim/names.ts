// Believable names for clusters, nodes and guests, and the tags that go with them.

import type { Rng } from './prng.ts'
import type { GuestType } from './model.ts'

const CLUSTER_NAMES = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliett',
  'kilo',
  'lima',
  'mike',
  'november',
  'oscar',
  'papa',
  'quebec',
  'romeo',
  'sierra',
  'tango',
  'uniform',
  'victor',
  'whiskey',
  'xray',
  'yankee',
  'zulu',
] as const

/** Names cluster i: alpha, bravo, ... then alpha2, bravo2 ... past zulu. */
export function nameCluster(index: number): string {
  const base = CLUSTER_NAMES[index % CLUSTER_NAMES.length] ?? 'alpha'
  const round = Math.floor(index / CLUSTER_NAMES.length)
  return round === 0 ? base : `${base}${round + 1}`
}

/** Names node i of a cluster: alpha-pve1, alpha-pve2, ... */
export function nameNode(cluster: string, index: number): string {
  return `${cluster}-pve${index + 1}`
}

interface Role {
  prefix: string
  /** Probability that a guest of this role is a container rather than a VM. */
  lxc: number
  tag: string | undefined
}

// Weighted by repetition: web and app servers are common, directory servers rare.
const ROLES: readonly Role[] = [
  { prefix: 'web', lxc: 0.5, tag: 'web' },
  { prefix: 'web', lxc: 0.5, tag: 'web' },
  { prefix: 'app', lxc: 0.4, tag: 'app' },
  { prefix: 'app', lxc: 0.4, tag: 'app' },
  { prefix: 'api', lxc: 0.5, tag: 'app' },
  { prefix: 'db', lxc: 0.2, tag: 'db' },
  { prefix: 'pg', lxc: 0.3, tag: 'db' },
  { prefix: 'mysql', lxc: 0.3, tag: 'db' },
  { prefix: 'cache', lxc: 0.7, tag: 'cache' },
  { prefix: 'redis', lxc: 0.8, tag: 'cache' },
  { prefix: 'worker', lxc: 0.4, tag: undefined },
  { prefix: 'mq', lxc: 0.4, tag: undefined },
  { prefix: 'proxy', lxc: 0.6, tag: 'web' },
  { prefix: 'lb', lxc: 0.5, tag: 'web' },
  { prefix: 'dns', lxc: 0.9, tag: 'infra' },
  { prefix: 'mail', lxc: 0.3, tag: undefined },
  { prefix: 'git', lxc: 0.3, tag: 'dev' },
  { prefix: 'ci-runner', lxc: 0.3, tag: 'ci' },
  { prefix: 'k8s-node', lxc: 0, tag: 'k8s' },
  { prefix: 'k8s-cp', lxc: 0, tag: 'k8s' },
  { prefix: 'monitor', lxc: 0.7, tag: 'monitoring' },
  { prefix: 'grafana', lxc: 0.8, tag: 'monitoring' },
  { prefix: 'log', lxc: 0.5, tag: 'monitoring' },
  { prefix: 'elastic', lxc: 0.1, tag: 'db' },
  { prefix: 'kafka', lxc: 0.2, tag: undefined },
  { prefix: 'vault', lxc: 0.4, tag: 'infra' },
  { prefix: 'ldap', lxc: 0.5, tag: 'infra' },
  { prefix: 'files', lxc: 0.4, tag: undefined },
  { prefix: 'jump', lxc: 0.8, tag: 'infra' },
  { prefix: 'win-rds', lxc: 0, tag: 'windows' },
  { prefix: 'win-dc', lxc: 0, tag: 'windows' },
]

const ENVS = ['prod', 'prod', 'prod', 'staging', 'dev'] as const
const ENV_TAGS: Record<(typeof ENVS)[number], string> = {
  prod: 'prod',
  staging: 'staging',
  dev: 'development',
}

/** What a freshly invented guest is called and tagged. */
export interface GuestIdentity {
  name: string
  type: GuestType
  tags: string | undefined
  /** Windows guests keep their memory close to maxmem (no balloon). */
  windows: boolean
}

/** Invents a guest: role, environment, unique name within the cluster, type and tags. */
export function inventGuest(
  rng: Rng,
  counters: Map<string, number>,
  qemuShare: number,
): GuestIdentity {
  const role = rng.pick(ROLES)
  const env = rng.pick(ENVS)
  // Names carry the environment only outside prod half the time, like real estates do.
  const stem = env === 'prod' && rng.chance(0.5) ? role.prefix : `${role.prefix}-${env}`
  const n = (counters.get(stem) ?? 0) + 1
  counters.set(stem, n)
  const name = `${stem}-${String(n).padStart(2, '0')}`
  // Bias the role's own container share towards the requested estate-wide mix; a role that is
  // never a container (Windows, Kubernetes nodes) stays a VM: a Windows LXC does not exist.
  const lxcShare = role.lxc === 0 ? 0 : (role.lxc + (1 - qemuShare)) / 2
  const type: GuestType = rng.chance(lxcShare) ? 'lxc' : 'qemu'
  return { name, type, tags: chooseTags(rng, role, env), windows: role.prefix.startsWith('win') }
}

function chooseTags(rng: Rng, role: Role, env: (typeof ENVS)[number]): string | undefined {
  if (rng.chance(0.45)) return undefined
  const tags: string[] = []
  if (role.tag !== undefined && rng.chance(0.7)) tags.push(role.tag)
  if (rng.chance(0.8)) tags.push(ENV_TAGS[env])
  if (rng.chance(0.15)) tags.push('backup')
  if (tags.length === 0) tags.push(ENV_TAGS[env])
  // PVE keeps tags sorted and deduplicated when saved through the GUI.
  return [...new Set(tags)].sort().join(';')
}

/** Template names, used for the handful of stopped templates at vmid 9000+. */
export const TEMPLATE_NAMES = [
  'tpl-debian-12',
  'tpl-ubuntu-24.04',
  'tpl-rocky-9',
  'tpl-win2022',
  'tpl-debian-13',
  'tpl-alpine-3.20',
] as const
