// The setup script's registration step (spec 000 §8): after creating the token it sends it, the
// node's own TLS fingerprint and its one-time code to Pulse, so the admin types nothing. The
// secret goes to curl on stdin, never on a command line (other users see those in ps).
import type { NodeType } from '../../shared/model/node-config.ts'

/**
 * Certificates pveproxy / the PBS proxy serve, most specific first: a custom certificate
 * (pveproxy-ssl.pem) replaces the cluster-signed node certificate when present.
 */
const CERT_FILES: Record<NodeType, string> = {
  pve: '/etc/pve/local/pveproxy-ssl.pem /etc/pve/local/pve-ssl.pem',
  pbs: '/etc/proxmox-backup/proxy.pem',
}

/** Shell functions `node_fingerprint` and `register` (sets `reg_error` when it fails). */
export function registerFunctions(type: NodeType): string[] {
  return [
    '# The SHA-256 fingerprint of the certificate this node serves; empty when it cannot be read.',
    '# PULSE_NODE_CERT names another certificate file (a proxy in front of the node).',
    'node_fingerprint() {',
    `  for cert in \${PULSE_NODE_CERT:-} ${CERT_FILES[type]}; do`,
    '    if [ -r "$cert" ] && command -v openssl >/dev/null 2>&1; then',
    '      openssl x509 -noout -fingerprint -sha256 -in "$cert" 2>/dev/null | sed -n \'s/^[^=]*=//p\'',
    '      return 0',
    '    fi',
    '  done',
    '}',
    '',
    'json_escape() {',
    "  printf '%s' \"$1\" | sed -e 's/\\\\/\\\\\\\\/g' -e 's/\"/\\\\\"/g' | tr -d '\\000-\\037'",
    '}',
    '',
    '# POST the new token to Pulse. Returns 1 with reg_error set (empty: nothing to report).',
    'register() {',
    '  reg_error=',
    '  [ -n "$REGISTER_CODE" ] && [ -n "$PULSE_URL" ] || return 1',
    '  if ! command -v curl >/dev/null 2>&1; then',
    "    reg_error='curl is not installed'",
    '    return 1',
    '  fi',
    '  fingerprint=$(node_fingerprint)',
    '  body=$(printf \'{"type":"%s","host":"%s","tokenId":"%s","tokenValue":"%s","serverName":"%s","fingerprint":"%s","code":"%s"}\' \\',
    '    "$NODE_TYPE" "$(json_escape "$NODE_HOST")" "$(json_escape "$1")" "$(json_escape "$secret")" \\',
    '    "$(json_escape "$(hostname)")" "$(json_escape "$fingerprint")" "$(json_escape "$REGISTER_CODE")")',
    '  if ! response=$(printf \'%s\' "$body" | curl -sS --max-time 60 -X POST \\',
    "    -H 'Content-Type: application/json' --data-binary @- -w '\\n%{http_code}' \\",
    '    "$PULSE_URL/api/auto-register" 2>&1); then',
    // With -sS curl's own error ("curl: (7) Failed to connect ...") is the useful line.
    "    reg_error=$(printf '%s\\n' \"$response\" | grep '^curl:' | head -n 1)",
    '    [ -n "$reg_error" ] || reg_error=\'could not reach Pulse\'',
    '    return 1',
    '  fi',
    '  status=$(printf \'%s\\n\' "$response" | tail -n 1)',
    '  if [ "$status" = 200 ]; then return 0; fi',
    '  reg_error=$(printf \'%s\\n\' "$response" | sed -n \'s/.*"message"[[:space:]]*:[[:space:]]*"\\([^"]*\\)".*/\\1/p\' | head -n 1)',
    '  [ -n "$reg_error" ] || reg_error="Pulse answered HTTP $status"',
    '  return 1',
    '}',
    '',
  ]
}

/** The closing lines of main: register, or print the manual instructions (`manual`). */
export function registerOrExplain(tokenId: string, manual: string[]): string[] {
  return [
    `  if register '${tokenId}'; then`,
    '    echo',
    '    echo "Registered with Pulse ($PULSE_URL): $NODE_HOST is now monitored."',
    '  else',
    '    if [ -n "$reg_error" ]; then',
    '      echo',
    '      echo "Automatic registration with Pulse failed: $reg_error"',
    '    fi',
    ...manual.map((line) => `  ${line}`),
    '  fi',
  ]
}
