// The server's security status (GET /api/security/status, spec 001 §3 Security status), shared by
// the security warning banner and the Security tab. The auth flow's first read fills it, so the
// banner costs no extra call; the Security tab reads it afresh and after each change.
import { proxy } from 'valtio'
import type { SecurityStatus } from '../../shared/model/security.ts'
import { apiJson } from '../api/http.ts'

/**
 * The status answer (the server's SecurityStatus). All fields optional: an older or partial
 * answer still reads.
 */
export type SecurityStatusInfo = Partial<SecurityStatus>

/** Password login is configured and in force (older answers: any configured authentication). */
export function hasPasswordLogin(status: Readonly<SecurityStatusInfo>): boolean {
  if (status.disabled === true) return false
  return status.hasPasswordLogin ?? status.hasAuthentication === true
}

export interface SecurityStatusState {
  /** The last status read, or null before the first (or after a failed first) read. */
  status: SecurityStatusInfo | null
  /** A read was made (or tried) since the page started. */
  attempted: boolean
}

export const securityStatusState = proxy<SecurityStatusState>({ status: null, attempted: false })

/** Records the auth flow's read (null when it failed or was skipped after a failure). */
export function rememberSecurityStatus(status: SecurityStatusInfo | null): void {
  securityStatusState.attempted = true
  if (status && typeof status === 'object') securityStatusState.status = status
}

/** Reads the status again and stores it; rejects (keeping the old one) when the call fails. */
export async function refreshSecurityStatus(): Promise<SecurityStatusInfo> {
  securityStatusState.attempted = true
  const status = await apiJson<SecurityStatusInfo>('/api/security/status')
  if (!status || typeof status !== 'object') throw new Error('Invalid security status answer')
  securityStatusState.status = status
  return status
}

/** Applies a known change at once (the server's next answer confirms it). */
export function patchSecurityStatus(patch: Partial<SecurityStatusInfo>): void {
  if (securityStatusState.status) Object.assign(securityStatusState.status, patch)
}

/** Forgets the status, as on a fresh page (tests call it between mounts). */
export function resetSecurityStatus(): void {
  securityStatusState.status = null
  securityStatusState.attempted = false
}
