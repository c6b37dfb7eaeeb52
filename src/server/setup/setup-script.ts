// The setup script (spec 001 §6, reference/proxmox-api.md §5): run as root on a PVE or PBS node,
// it creates the read-only monitoring identity and registers the token with Pulse (or, without a
// registration code or when that fails, prints it for the admin to enter). Safe to run twice: existing
// users and roles are kept, the token is removed and created again (its secret is shown once).
import type { NodeType } from '../../shared/model/node-config.ts'
import { registerFunctions, registerOrExplain } from './setup-register.ts'

/** Names the script creates (spec 001 §6). */
export const SETUP_IDENTITY = {
  pveUser: 'pulse-monitor@pam',
  pbsUser: 'pulse-monitor@pbs',
  tokenName: 'pulse-token',
  pveRole: 'PulseMonitor',
} as const

export interface SetupScriptOptions {
  type: NodeType
  /** The node's address as typed in Pulse; shown in the closing instructions only. */
  host: string
  /** This Pulse's address; shown in the closing instructions only. */
  pulseUrl: string
  /** PVE: also grant PVEDatastoreAdmin on /storage (backup volumes in content lists). */
  backupPerms: boolean
  /** One-time code for POST /api/auto-register; without one the script only prints the token. */
  registrationCode?: string
}

/** Quote a value for POSIX sh: single quotes, control characters dropped, bounded length. */
export function shellQuote(value: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\x00-\x1f\x7f]/g, '').slice(0, 512)
  return `'${clean.replace(/'/g, `'\\''`)}'`
}

/** The script text for one node type. */
export function buildSetupScript(options: SetupScriptOptions): string {
  const header = [
    '#!/usr/bin/env bash',
    `# Pulse monitoring setup for ${options.type === 'pbs' ? 'Proxmox Backup Server' : 'Proxmox VE'}.`,
    '# Creates a read-only user and API token for Pulse. Run as root on the node; safe to re-run',
    '# (the token is recreated; registration hands Pulse the new one, or enter it by hand).',
    'set -eu',
    '',
    `PULSE_URL=${shellQuote(options.pulseUrl)}`,
    `NODE_HOST=${shellQuote(options.host)}`,
    `NODE_TYPE=${options.type}`,
    `REGISTER_CODE=${shellQuote(options.registrationCode ?? '')}`,
    '',
    'fail() {',
    '  echo "error: $*" >&2',
    '  exit 1',
    '}',
    '',
    ...registerFunctions(options.type),
  ]
  const body = options.type === 'pbs' ? pbsBody() : pveBody(options.backupPerms)
  // main runs only once bash has read the whole script: with `curl ... | bash` a command that
  // reads stdin would otherwise swallow the rest of the script.
  return [...header, ...body, '', 'main "$@" </dev/null', ''].join('\n')
}

/** Lines that print the token and what to do with it. */
function summary(product: string, tokenId: string): string[] {
  return [
    '  echo',
    "  echo '=================================================================='",
    `  echo ' Pulse monitoring token for ${product}'`,
    `  echo ' Token ID:     ${tokenId}'`,
    '  echo " Token secret: $secret"',
    "  echo '=================================================================='",
    '  echo "In Pulse ($PULSE_URL) add the node $NODE_HOST with API token authentication"',
    '  echo "and the token ID and secret above. The secret is shown only this once."',
  ]
}

/** Reads the token secret from JSON output, compact or pretty. */
const READ_SECRET =
  '  secret=$(printf \'%s\\n\' "$output" | sed -n \'s/.*"value"[[:space:]]*:[[:space:]]*"\\([^"]*\\)".*/\\1/p\' | head -n 1)'

function pveBody(backupPerms: boolean): string[] {
  const { pveUser: user, tokenName: token, pveRole: role } = SETUP_IDENTITY
  const tokenId = `${user}!${token}`
  return [
    `BACKUP_PERMS=${backupPerms ? 'true' : 'false'}`,
    '',
    'main() {',
    '  [ "$(id -u)" = 0 ] || fail "run this script as root on a Proxmox VE node"',
    '  command -v pveum >/dev/null 2>&1 || fail "pveum not found: run this on a Proxmox VE node"',
    '',
    '  # Guest-agent reads: VM.Monitor up to PVE 8; PVE 9 removed it for VM.GuestAgent.Audit.',
    "  major=$(pveversion | sed -n 's#^pve-manager/\\([0-9][0-9]*\\)\\..*#\\1#p')",
    '  case "$major" in',
    "    '' | *[!0-9]*) fail 'cannot read the Proxmox VE version from pveversion' ;;",
    '  esac',
    '  if [ "$major" -ge 9 ]; then agent_priv=VM.GuestAgent.Audit; else agent_priv=VM.Monitor; fi',
    '  echo "Proxmox VE $major detected: the guest agent role gets $agent_priv"',
    '',
    `  if pveum user list --output-format json | grep -q '"${user}"'; then`,
    `    echo 'User ${user} already exists'`,
    '  else',
    `    pveum user add '${user}' --comment 'Pulse monitoring'`,
    '  fi',
    '',
    `  if pveum role list --output-format json | grep -q '"${role}"'; then`,
    `    pveum role modify '${role}' --privs "$agent_priv"`,
    '  else',
    `    pveum role add '${role}' --privs "$agent_priv"`,
    '  fi',
    '',
    "  # The token is privilege-separated: it gets its own ACLs, capped by the user's.",
    `  pveum acl modify / --users '${user}' --roles 'PVEAuditor,${role}'`,
    '  if [ "$BACKUP_PERMS" = true ]; then',
    `    pveum acl modify /storage --users '${user}' --roles PVEDatastoreAdmin`,
    '  fi',
    '',
    `  if pveum user token list '${user}' --output-format json | grep -q '"${token}"'; then`,
    `    pveum user token remove '${user}' '${token}'`,
    '  fi',
    `  output=$(pveum user token add '${user}' '${token}' --privsep 1 --comment 'Pulse monitoring' --output-format json)`,
    READ_SECRET,
    '  [ -n "$secret" ] || fail \'could not read the token secret from pveum\'',
    `  pveum acl modify / --tokens '${tokenId}' --roles 'PVEAuditor,${role}'`,
    '  if [ "$BACKUP_PERMS" = true ]; then',
    `    pveum acl modify /storage --tokens '${tokenId}' --roles PVEDatastoreAdmin`,
    '  fi',
    ...registerOrExplain(tokenId, summary('Proxmox VE', tokenId)),
    '}',
  ]
}

function pbsBody(): string[] {
  const { pbsUser: user, tokenName: token } = SETUP_IDENTITY
  const tokenId = `${user}!${token}`
  const pbm = 'proxmox-backup-manager'
  return [
    'main() {',
    '  [ "$(id -u)" = 0 ] || fail "run this script as root on a Proxmox Backup Server"',
    `  command -v ${pbm} >/dev/null 2>&1 || fail "${pbm} not found: run this on a Proxmox Backup Server"`,
    '',
    `  if ${pbm} user list --output-format json | grep -q '"${user}"'; then`,
    `    echo 'User ${user} already exists'`,
    '  else',
    `    ${pbm} user create '${user}' --comment 'Pulse monitoring'`,
    '  fi',
    '',
    `  if ${pbm} user list-tokens '${user}' --output-format json | grep -q '"${tokenId}"'; then`,
    `    ${pbm} user delete-token '${user}' '${token}'`,
    '  fi',
    `  output=$(${pbm} user generate-token '${user}' '${token}')`,
    READ_SECRET,
    `  [ -n "$secret" ] || fail 'could not read the token secret from ${pbm}'`,
    '',
    "  # PBS tokens have their own ACLs, capped by the user's: Audit for both.",
    `  ${pbm} acl update / Audit --auth-id '${user}'`,
    `  ${pbm} acl update / Audit --auth-id '${tokenId}'`,
    ...registerOrExplain(tokenId, summary('Proxmox Backup Server', tokenId)),
    '}',
  ]
}
