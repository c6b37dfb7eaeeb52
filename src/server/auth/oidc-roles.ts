// Single sign-on roles (issue 29 item 3): the role a user gets from the groups of the groupsClaim,
// the validation of a mapping (PUT body and OIDC_ROLE_MAPPING "group=role,group=role"), and the
// OIDC_DEFAULT_ROLE value.
import {
  OIDC_DEFAULT_ROLES,
  type OidcDefaultRole,
  type OidcRoleRule,
} from '../../shared/model/oidc-config.ts'
import { hasRole, isRole, type Role } from '../../shared/model/roles.ts'

export const MAX_ROLE_RULES = 100
const MAX_GROUP = 320

/**
 * The highest role among the rules whose group the user is in (exact match, as allowedGroups),
 * else `defaultRole`; null means refused (defaultRole 'none' and no group matched).
 */
export function decideOidcRole(
  groups: readonly string[],
  mapping: readonly OidcRoleRule[],
  defaultRole: OidcDefaultRole,
): Role | null {
  const mine = new Set(groups)
  let best: Role | null = null
  for (const rule of mapping) {
    if (mine.has(rule.group) && (best === null || !hasRole(best, rule.role))) best = rule.role
  }
  return best ?? (defaultRole === 'none' ? null : defaultRole)
}

export function isOidcDefaultRole(value: unknown): value is OidcDefaultRole {
  return typeof value === 'string' && (OIDC_DEFAULT_ROLES as readonly string[]).includes(value)
}

/** The problem with a mapping as `[field, problem]` (field relative: '1.role'), or null. */
export function roleMappingProblem(mapping: readonly OidcRoleRule[]): [string, string] | null {
  if (mapping.length > MAX_ROLE_RULES) return ['', `must have at most ${MAX_ROLE_RULES} entries`]
  const seen = new Set<string>()
  for (const [index, rule] of mapping.entries()) {
    if (rule.group === '') return [`${index}.group`, 'must not be empty']
    if (rule.group.length > MAX_GROUP) {
      return [`${index}.group`, `must be at most ${MAX_GROUP} characters`]
    }
    if (seen.has(rule.group)) return [`${index}.group`, `"${rule.group}" is mapped twice`]
    seen.add(rule.group)
    if (!isRole(rule.role)) return [`${index}.role`, 'must be viewer, operator or admin']
  }
  return null
}

/** OIDC_ROLE_MAPPING: "ops=operator, admins=admin" (commas or whitespace between pairs). */
export function parseRoleMapping(name: string, raw: string): OidcRoleRule[] {
  const mapping: OidcRoleRule[] = []
  for (const pair of raw.split(/[\s,]+/).filter((part) => part !== '')) {
    const at = pair.lastIndexOf('=')
    const group = at > 0 ? pair.slice(0, at) : ''
    const role = pair.slice(at + 1).toLowerCase()
    if (group === '' || !isRole(role)) {
      throw new Error(`${name}: "${pair}" is not group=viewer|operator|admin`)
    }
    mapping.push({ group, role })
  }
  const problem = roleMappingProblem(mapping)
  if (problem) throw new Error(`${name}: ${problem[0] ? `entry ${problem[0]} ` : ''}${problem[1]}`)
  return mapping
}

/** OIDC_DEFAULT_ROLE: viewer, operator, admin or none. */
export function parseDefaultRole(name: string, raw: string): OidcDefaultRole {
  const value = raw.toLowerCase()
  if (!isOidcDefaultRole(value)) {
    throw new Error(`${name} must be viewer, operator, admin or none (got "${raw}")`)
  }
  return value
}
