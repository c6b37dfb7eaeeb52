// The signed-in user's role in the UI (issue 29 item 6): controls a role cannot use are hidden or
// shown disabled with a short reason. The server checks every call regardless (route-roles.ts).
import { useSnapshot } from 'valtio'
import { hasRole, type Role } from '../../shared/model/roles.ts'
import { authState } from './auth-store.ts'

export interface RoleAccess {
  /** The role, or null when the server did not say (an older server): everything is shown. */
  role: Role | null
  /** True when the user may do what `needed` may. */
  can: (needed: Role) => boolean
}

/** True when `role` (null: unknown, shown as allowed) may do what `needed` may. */
export function roleAllows(role: Role | null, needed: Role): boolean {
  return role === null || hasRole(role, needed)
}

/** The short reason shown on a control the role cannot use. */
export function roleReason(needed: Role): string {
  return `Needs the ${needed} role`
}

/** The signed-in user's role and `can(role)`. */
export function useRole(): RoleAccess {
  const { role } = useSnapshot(authState)
  return { role, can: (needed) => roleAllows(role, needed) }
}
