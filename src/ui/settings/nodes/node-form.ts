// The Add/Edit node form's logic (spec 001 §3 Node form, §4 Node form and Test connection, §5
// node rules): defaults, edit prefill, checks, the payload, and which test call to make. Pure:
// the modal binds it, tests call it directly.
import type { DiscoveredServer, NodePayload, NodeType, NodeView } from './nodes-api.ts'

export type AuthType = 'password' | 'token'
/** Token set-up tabs: Quick Setup (a generated script) or Manual Setup (commands by hand). */
export type SetupMode = 'auto' | 'manual'

export interface NodeForm {
  type: NodeType
  name: string
  host: string
  authType: AuthType
  setupMode: SetupMode
  user: string
  password: string
  tokenName: string
  tokenValue: string
  fingerprint: string
  verifySSL: boolean
}

/** Spec 001 §9 default ports. */
export const DEFAULT_PORT: Record<NodeType, number> = { pve: 8006, pbs: 8007 }

export const TYPE_LABEL: Record<NodeType, string> = {
  pve: 'Proxmox VE',
  pbs: 'Proxmox Backup Server',
}

/** Spec 001 §6: the identities the setup creates. */
export const MONITOR_USER: Record<NodeType, string> = {
  pve: 'pulse-monitor@pam',
  pbs: 'pulse-monitor@pbs',
}
export const MONITOR_TOKEN_NAME = 'pulse-token'

/** The Host URL placeholder: https://proxmox.example.com:8006 (PVE) or :8007 (PBS). */
export function hostPlaceholder(type: NodeType): string {
  return `https://proxmox.example.com:${DEFAULT_PORT[type]}`
}

/** Example user and token id shown as placeholders. */
export function userPlaceholder(type: NodeType): string {
  return type === 'pbs' ? 'admin@pbs' : 'root@pam'
}
export function tokenIdPlaceholder(type: NodeType): string {
  return `${MONITOR_USER[type]}!${MONITOR_TOKEN_NAME}`
}

/** Spec 001 §4: a fresh form is token auth, Quick Setup, SSL verification on. */
export function defaultNodeForm(type: NodeType): NodeForm {
  return {
    type,
    name: '',
    host: '',
    authType: 'token',
    setupMode: 'auto',
    user: '',
    password: '',
    tokenName: '',
    tokenValue: '',
    fingerprint: '',
    verifySSL: true,
  }
}

/**
 * Spec 001 §4 edit prefill: password auth when the node has a password, else token; secrets
 * blank (kept when left blank). A PBS token id with '!' and no password gives the user.
 */
export function formFromNode(node: NodeView): NodeForm {
  const authType: AuthType = node.hasPassword ? 'password' : 'token'
  let user = node.user
  if (node.type === 'pbs' && !node.hasPassword && node.tokenName.includes('!')) {
    user = node.tokenName.slice(0, node.tokenName.indexOf('!'))
  }
  return {
    ...defaultNodeForm(node.type),
    name: node.name,
    host: node.host,
    authType,
    // Editing: the token fields and the hand-run commands matter more than a new script.
    setupMode: 'manual',
    user,
    tokenName: node.tokenName,
    fingerprint: node.fingerprint,
    verifySSL: node.verifySSL,
  }
}

/** The address of a discovered server: https://ip:port. */
export function discoveredHost(server: DiscoveredServer): string {
  const ip = server.ip.includes(':') && !server.ip.startsWith('[') ? `[${server.ip}]` : server.ip
  return `https://${ip}:${server.port || DEFAULT_PORT[server.type]}`
}

/** A new-node form prefilled from a discovered server (host https://ip:port, name = hostname). */
export function formFromDiscovered(server: DiscoveredServer): NodeForm {
  return {
    ...defaultNodeForm(server.type),
    host: discoveredHost(server),
    name: server.hostname ?? '',
  }
}

/** Spec 001 §4: the generated setup command is dropped when the host changes or auto mode is left. */
export function clearsSetupCommand(before: NodeForm, after: NodeForm): boolean {
  return (
    before.host !== after.host ||
    after.setupMode !== 'auto' ||
    after.authType !== 'token' ||
    before.type !== after.type
  )
}

/** Spec 001 §5: token ids look like user@realm!tokenname. */
export const TOKEN_ID_PATTERN = /^[^\s@!]+@[^\s@!]+![^\s@!]+$/

/** Whether a secret must be typed: always when adding, or when the node has none of that kind. */
function secretRequired(form: NodeForm, node: NodeView | null): boolean {
  if (!node) return true
  return form.authType === 'password' ? !node.hasPassword : !node.hasToken
}

function hostProblem(form: NodeForm): string {
  const host = form.host.trim()
  if (!host) return 'Host URL is required'
  if (form.type === 'pbs' && /^http:\/\//i.test(host)) return 'PBS requires HTTPS'
  return ''
}

/** Spec 001 §5 save rules in order; '' when the form can be saved. */
export function saveProblem(form: NodeForm, node: NodeView | null): string {
  const host = hostProblem(form)
  if (host) return host
  if (form.authType === 'password') {
    if (!form.user.trim()) return 'Username is required'
    if (secretRequired(form, node) && !form.password) return 'Password is required'
    return ''
  }
  const tokenName = form.tokenName.trim()
  if (!tokenName) return 'Token ID is required'
  if (!TOKEN_ID_PATTERN.test(tokenName)) return 'Token ID must look like user@realm!tokenname'
  if (secretRequired(form, node) && !form.tokenValue.trim()) return 'Token value is required'
  return ''
}

/** The monitor flags of the node's type, all on (spec 001 §3: all are sent as true on save). */
function monitorFlags(type: NodeType): Partial<NodePayload> {
  if (type === 'pve') {
    return { monitorVMs: true, monitorContainers: true, monitorStorage: true, monitorBackups: true }
  }
  return {
    monitorDatastores: true,
    monitorSyncJobs: true,
    monitorVerifyJobs: true,
    monitorPruneJobs: true,
    monitorGarbageJobs: true,
  }
}

/** The POST/PUT body: trimmed fields, the chosen auth only, blank secrets left out (kept). */
export function toPayload(form: NodeForm): NodePayload {
  const payload: NodePayload = {
    type: form.type,
    name: form.name.trim(),
    host: form.host.trim(),
    fingerprint: form.fingerprint.trim(),
    verifySSL: form.verifySSL,
    ...monitorFlags(form.type),
  }
  if (form.authType === 'password') {
    payload.user = form.user.trim()
    if (form.password) payload.password = form.password
  } else {
    payload.tokenName = form.tokenName.trim()
    if (form.tokenValue.trim()) payload.tokenValue = form.tokenValue.trim()
  }
  return payload
}

/** Which connection test to run, or why none can run. */
export type TestPlan =
  | { kind: 'invalid'; problem: string }
  /** POST /api/config/nodes/{id}/test: the stored node as it is. */
  | { kind: 'stored'; id: string }
  /** POST /api/config/nodes/test-connection with the form (and `id` to reuse stored secrets). */
  | { kind: 'config'; payload: NodePayload }

/** The fields a connection test depends on, apart from the secrets. */
function sameConnection(form: NodeForm, node: NodeView): boolean {
  const auth =
    form.authType === 'password'
      ? node.hasPassword && form.user.trim() === node.user
      : node.hasToken && form.tokenName.trim() === node.tokenName
  return (
    auth &&
    form.host.trim() === node.host &&
    form.fingerprint.trim() === node.fingerprint &&
    form.verifySSL === node.verifySSL
  )
}

/**
 * Spec 001 §5 test rules: host, then the credentials ("Username and password are required",
 * "Token ID and token value are required"). Testing an edited node with no new secret uses the
 * existing-node test; when its settings were changed the form is tested with the node's id, so
 * the stored secret is reused with the new settings.
 */
export function testPlan(form: NodeForm, node: NodeView | null): TestPlan {
  const host = hostProblem(form)
  if (host) return { kind: 'invalid', problem: host }
  const password = form.authType === 'password'
  const secret = password ? form.password : form.tokenValue.trim()
  const stored = node !== null && !secret && !secretRequired(form, node)
  const who = password ? form.user.trim() : form.tokenName.trim()
  if (!who || (!secret && !stored)) {
    const problem = password
      ? 'Username and password are required'
      : 'Token ID and token value are required'
    return { kind: 'invalid', problem }
  }
  if (!password && !TOKEN_ID_PATTERN.test(who)) {
    return { kind: 'invalid', problem: 'Token ID must look like user@realm!tokenname' }
  }
  if (stored && sameConnection(form, node)) return { kind: 'stored', id: node.id }
  const payload = toPayload(form)
  return { kind: 'config', payload: stored ? { ...payload, id: node.id } : payload }
}

/** Spec 001 §6: the commands of Manual Setup, for the Proxmox shell of the node. */
export function manualSetupCommands(type: NodeType): string[] {
  const user = MONITOR_USER[type]
  if (type === 'pbs') {
    return [
      `proxmox-backup-manager user create ${user}`,
      `proxmox-backup-manager user generate-token ${user} ${MONITOR_TOKEN_NAME}`,
      `proxmox-backup-manager acl update / Audit --auth-id ${user}`,
      `proxmox-backup-manager acl update / Audit --auth-id '${user}!${MONITOR_TOKEN_NAME}'`,
    ]
  }
  return [
    `pveum user add ${user} --comment "Pulse monitoring"`,
    `pveum user token add ${user} ${MONITOR_TOKEN_NAME} --privsep 0`,
    `pveum aclmod / -user ${user} -role PVEAuditor`,
    `pveum aclmod /storage -user ${user} -role PVEDatastoreAdmin`,
    '# PVE 8 and below only: guest agent data needs VM.Monitor',
    `pveum role add PulseMonitor -privs VM.Monitor`,
    `pveum aclmod / -user ${user} -role PulseMonitor`,
  ]
}

/** The Monitoring coverage note. */
export function monitoringCoverage(type: NodeType): string {
  return type === 'pve'
    ? 'Pulse monitors VMs, containers, storage and backups on this node (and its cluster).'
    : 'Pulse monitors datastores, sync, verify, prune and garbage collection jobs on this server.'
}
