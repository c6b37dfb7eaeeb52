// Stand-ins for the Proxmox command-line tools (fakes: no Proxmox host here). Each is a small bash
// script that logs its argv, keeps the created user, role and token in a state directory, and
// fails like the real tool on a duplicate or a missing object (and on VM.Monitor under PVE 9).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const LOG = `log() { { printf '%s' "$(basename "$0")"; for a in "$@"; do printf '\\t%s' "$a"; done; printf '\\n'; } >>"$STUB_STATE/calls.log"; }
log "$@"
s="$STUB_STATE"
die() { echo "$*" >&2; exit 255; }`

const PVEUM = `#!/usr/bin/env bash
set -eu
${LOG}
check_priv() {
  if [ "$1" = VM.Monitor ] && [ "$STUB_PVE_MAJOR" -ge 9 ]; then die "invalid privilege 'VM.Monitor'"; fi
}
case "$1 \${2:-}" in
"user list")
  if [ -f "$s/user" ]; then
    echo '[{"enable":1,"expire":0,"userid":"root@pam"},{"enable":1,"expire":0,"userid":"pulse-monitor@pam"}]'
  else
    echo '[{"enable":1,"expire":0,"userid":"root@pam"}]'
  fi ;;
"user add")
  if [ -f "$s/user" ]; then die "create user failed: user '$3' already exists"; fi
  touch "$s/user" ;;
"role list")
  if [ -f "$s/role" ]; then
    printf '[{"privs":"Sys.Audit","roleid":"PVEAuditor","special":1},{"privs":"%s","roleid":"PulseMonitor","special":0}]\\n' "$(cat "$s/role")"
  else
    echo '[{"privs":"Sys.Audit","roleid":"PVEAuditor","special":1}]'
  fi ;;
"role add")
  if [ -f "$s/role" ]; then die "role '$3' already exists"; fi
  check_priv "$5"; echo "$5" >"$s/role" ;;
"role modify")
  if [ ! -f "$s/role" ]; then die "role '$3' does not exist"; fi
  check_priv "$5"; echo "$5" >"$s/role" ;;
"acl modify")
  if [ "$4" = --users ] && [ ! -f "$s/user" ]; then die "user '$5' does not exist"; fi
  if [ "$4" = --tokens ] && [ ! -f "$s/token" ]; then die "token '$5' does not exist"; fi ;;
"user token")
  case "$3" in
  list)
    if [ ! -f "$s/user" ]; then die "no such user"; fi
    if [ -f "$s/token" ]; then
      echo '[{"comment":"Pulse monitoring","expire":0,"privsep":1,"tokenid":"pulse-token"}]'
    else
      echo '[]'
    fi ;;
  add)
    if [ -f "$s/token" ]; then die "Token already exists."; fi
    n=$(( $(cat "$s/count" 2>/dev/null || echo 0) + 1 )); echo "$n" >"$s/count"; touch "$s/token"
    printf '{"full-tokenid":"%s!%s","info":{"privsep":"1"},"value":"0000000%s-aaaa-4bbb-8ccc-dddddddddddd"}\\n' "$4" "$5" "$n" ;;
  remove)
    if [ ! -f "$s/token" ]; then die "no such token"; fi
    rm "$s/token" ;;
  *) die "stub: unexpected $*" ;;
  esac ;;
*) die "stub: unexpected $*" ;;
esac
`

const PVEVERSION = `#!/usr/bin/env bash
set -eu
${LOG}
echo "pve-manager/$STUB_PVE_MAJOR.1.4/b502d23c55afcba1 (running kernel: 6.8.12-9-pve)"
`

const PBM = `#!/usr/bin/env bash
set -eu
${LOG}
case "$1 \${2:-}" in
"user list")
  if [ -f "$s/user" ]; then
    echo '[{"enable":true,"userid":"root@pam"},{"comment":"Pulse monitoring","enable":true,"userid":"pulse-monitor@pbs"}]'
  else
    echo '[{"enable":true,"userid":"root@pam"}]'
  fi ;;
"user create")
  if [ -f "$s/user" ]; then die "user '$3' already exists."; fi
  touch "$s/user" ;;
"user list-tokens")
  if [ ! -f "$s/user" ]; then die "no such user"; fi
  if [ -f "$s/token" ]; then
    echo '[{"enable":true,"expire":0,"tokenid":"pulse-monitor@pbs!pulse-token"}]'
  else
    echo '[]'
  fi ;;
"user delete-token")
  if [ ! -f "$s/token" ]; then die "no such token"; fi
  rm "$s/token" ;;
"user generate-token")
  if [ -f "$s/token" ]; then die "token '$3!$4' already exists."; fi
  n=$(( $(cat "$s/count" 2>/dev/null || echo 0) + 1 )); echo "$n" >"$s/count"; touch "$s/token"
  printf 'Result: {\\n  "tokenid": "%s!%s",\\n  "value": "pbs-secret-%s"\\n}\\n' "$3" "$4" "$n" ;;
"acl update")
  case "$6" in
  *!*) if [ ! -f "$s/token" ]; then die "no such token"; fi ;;
  *) if [ ! -f "$s/user" ]; then die "no such user"; fi ;;
  esac ;;
*) die "stub: unexpected $*" ;;
esac
`

const ID = `#!/usr/bin/env bash
if [ "\${1:-}" = -u ]; then echo 0; else exec /usr/bin/id "$@"; fi
`

// A fixed name: the registration step sends it as the node's name.
const HOSTNAME = `#!/usr/bin/env bash
echo pve-stub
`

/** A directory of stub tools plus their state; run scripts against it. */
export interface StubHost {
  /** Run a script the way `curl ... | bash` does (script on stdin), with `env` added. */
  run(
    script: string,
    env?: Record<string, string>,
  ): { status: number | null; stdout: string; stderr: string }
  /**
   * The same without blocking: a script that calls back into a server of this process (the
   * registration step) needs the event loop running while it waits.
   */
  runAsync(
    script: string,
    env?: Record<string, string>,
  ): Promise<{ status: number | null; stdout: string; stderr: string }>
  /** Calls made since the last take, each as [tool, ...args]. */
  takeCalls(): string[][]
}

/** Create the stubs in `dir`; `pveMajor` is what pveversion reports. */
export function createStubHost(dir: string, pveMajor: number): StubHost {
  const bin = path.join(dir, 'bin')
  const state = path.join(dir, 'state')
  fs.mkdirSync(bin, { recursive: true })
  fs.mkdirSync(state, { recursive: true })
  const tools: Record<string, string> = {
    pveum: PVEUM,
    pveversion: PVEVERSION,
    'proxmox-backup-manager': PBM,
    id: ID,
    hostname: HOSTNAME,
  }
  for (const [name, text] of Object.entries(tools)) {
    fs.writeFileSync(path.join(bin, name), text, { mode: 0o755 })
  }
  const log = path.join(state, 'calls.log')
  const envFor = (env: Record<string, string>) => ({
    PATH: `${bin}:/usr/bin:/bin`,
    STUB_STATE: state,
    STUB_PVE_MAJOR: String(pveMajor),
    ...env,
  })
  return {
    run(script, env = {}) {
      const result = spawnSync('bash', [], {
        input: script,
        encoding: 'utf8',
        env: envFor(env),
      })
      return { status: result.status, stdout: result.stdout, stderr: result.stderr }
    },
    runAsync(script, env = {}) {
      return new Promise((resolve, reject) => {
        const child = spawn('bash', [], { env: envFor(env) })
        let stdout = ''
        let stderr = ''
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
        child.on('error', reject)
        child.on('close', (status) => resolve({ status, stdout, stderr }))
        child.stdin.end(script)
      })
    },
    takeCalls() {
      const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''
      fs.rmSync(log, { force: true })
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split('\t'))
    },
  }
}
