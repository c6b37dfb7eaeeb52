// Roles (issue 29): what a caller may do. viewer reads (every live tab, alerts, history, charts);
// operator also works the alerts (acknowledge, unacknowledge, clear, notes, silences), tests
// notifications and runs diagnostics; admin does everything, configuration, nodes, security and
// users included. Each role can do all that the ones before it can.
export const ROLES = ['viewer', 'operator', 'admin'] as const
export type Role = (typeof ROLES)[number]

/** True when `role` may do what `needed` may. */
export function hasRole(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed)
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value)
}
