// Who may call what (issue 29): every HTTP route under /api and /ws, and every message a browser
// sends on the socket, with the role it needs, in this one table. The guard refuses a caller
// whose role is below it (403 ROLE_REQUIRED) and a route missing from it (403 ROUTE_ROLE_MISSING,
// logged): a route added without a role fails closed, and the route-walk test names it. Paths
// outside /api and /ws are the SPA (public); /metrics checks its own tokens (http/metrics.ts).
import type { Role } from '../../shared/model/roles.ts'

/** 'public': anyone, signed in or not. */
export type RouteAccess = Role | 'public'

/** 'METHOD /pattern' (as the router registered it; HEAD is GET) to the role it needs. */
export const ROUTE_ROLES: Readonly<Record<string, RouteAccess>> = {
  // Signing in, the health check and what the login screen needs.
  'GET /api/health': 'public',
  'GET /api/version': 'public',
  'GET /api/security/status': 'public',
  'POST /api/login': 'public',
  'POST /api/logout': 'public',
  'POST /api/security/quick-setup': 'public',
  'POST /api/oidc/login': 'public',
  'GET /api/oidc/callback': 'public',
  // Answers without credentials only to a valid one-time setup code (checked in the route).
  'GET /api/setup-script': 'public',
  // Answers only to a one-time registration code from a served setup script (checked in the route).
  'POST /api/auto-register': 'public',

  // The live tabs, alerts, history and charts: read-only.
  'GET /ws': 'viewer',
  'GET /api/state': 'viewer',
  'GET /api/history': 'viewer',
  'GET /api/history/:resourceId': 'viewer',
  'GET /api/alerts/active': 'viewer',
  'GET /api/alerts/config': 'viewer',
  'GET /api/alerts/history': 'viewer',
  'GET /api/alerts/history/summary': 'viewer',
  'GET /api/alerts/silences': 'viewer',
  'GET /api/guests/metadata': 'viewer',
  'GET /api/guests/metadata/*': 'viewer',
  'GET /api/system/theme': 'viewer',
  'GET /api/updates/status': 'viewer',
  'GET /api/updates/check': 'viewer',
  'GET /api/updates/plan': 'viewer',
  // Settings a viewer may read (nothing secret: secrets answer as hasPassword / hasToken).
  'GET /api/config/nodes': 'viewer',
  'GET /api/config/system': 'viewer',
  'GET /api/system/settings': 'viewer',
  'GET /api/settings': 'viewer',
  'GET /api/notifications/email-providers': 'viewer',
  'GET /api/notifications/webhook-templates': 'viewer',
  // Every signed-in user changes their own password and lists and ends their own sessions (a
  // session not theirs is "not found" to a non-admin; an admin ends any).
  'POST /api/security/change-password': 'viewer',
  'GET /api/security/sessions': 'viewer',
  'DELETE /api/security/sessions': 'viewer',
  'DELETE /api/security/sessions/:id': 'viewer',

  // Working the alerts: acknowledge, unacknowledge, clear and notes (one wildcard route), bulk,
  // silences; testing notifications; diagnostics and testing a stored node's connection.
  'POST /api/alerts/*': 'operator',
  'POST /api/alerts/bulk/acknowledge': 'operator',
  'POST /api/alerts/bulk/unacknowledge': 'operator',
  'POST /api/alerts/bulk/clear': 'operator',
  'POST /api/alerts/silences': 'operator',
  'DELETE /api/alerts/silences/:id': 'operator',
  'POST /api/notifications/test': 'operator',
  'POST /api/notifications/webhooks/test': 'operator',
  // Destinations hold addresses and webhook URLs (often with a key in them): not for viewers.
  'GET /api/notifications/email': 'operator',
  'GET /api/notifications/webhooks': 'operator',
  'GET /api/notifications/webhook-history': 'operator',
  'GET /api/notifications/deliveries': 'operator',
  'GET /api/diagnostics': 'operator',
  'GET /api/diagnostics/export': 'operator',
  'POST /api/config/nodes/:id/test': 'operator',

  // Configuration, nodes, security, users: administrators only.
  'PUT /api/alerts/config': 'admin',
  'DELETE /api/alerts/history': 'admin',
  'POST /api/config/nodes': 'admin',
  'PUT /api/config/nodes/:id': 'admin',
  'DELETE /api/config/nodes/:id': 'admin',
  'POST /api/config/nodes/test-connection': 'admin',
  'POST /api/config/export': 'admin',
  'POST /api/config/import': 'admin',
  'GET /api/discover': 'admin',
  'POST /api/discover': 'admin',
  'PUT /api/guests/metadata/*': 'admin',
  'DELETE /api/guests/metadata/*': 'admin',
  'POST /api/guests/metadata/batch': 'admin',
  'PUT /api/notifications/email': 'admin',
  'POST /api/notifications/webhooks': 'admin',
  'PUT /api/notifications/webhooks/:id': 'admin',
  'DELETE /api/notifications/webhooks/:id': 'admin',
  'GET /api/security/audit': 'admin',
  'GET /api/security/lockout': 'admin',
  'POST /api/security/unlock': 'admin',
  'GET /api/security/oidc': 'admin',
  'PUT /api/security/oidc': 'admin',
  'POST /api/security/regenerate-token': 'admin',
  'GET /api/users': 'admin',
  'POST /api/users': 'admin',
  'PUT /api/users/:username': 'admin',
  'DELETE /api/users/:username': 'admin',
  'GET /api/security/tokens': 'admin',
  'POST /api/security/tokens': 'admin',
  'DELETE /api/security/tokens/:id': 'admin',
  'GET /api/security/sessions/all': 'admin',
  'POST /api/setup-script-url': 'admin',
  'POST /api/settings/update': 'admin',
  'POST /api/settings/validate': 'admin',
  'POST /api/system/settings/update': 'admin',
  'POST /api/system/theme': 'admin',
  'POST /api/updates/apply': 'admin',
}

/** The role a route needs; undefined for a route the table does not declare. */
export function routeAccess(method: string, url: string): RouteAccess | undefined {
  return ROUTE_ROLES[`${method === 'HEAD' ? 'GET' : method} ${url}`]
}

/**
 * Messages a browser sends on the socket (hub/hub.ts) and the role each needs. Every one only
 * asks for data the socket already serves, so a viewer may send them all, and every socket is
 * opened by a caller the guard admitted at `GET /ws` (viewer at least); the hub answers nothing
 * else.
 */
export const SOCKET_MESSAGE_ROLES: Readonly<Record<string, Role>> = {
  ping: 'viewer',
  pong: 'viewer',
  resync: 'viewer',
  requestData: 'viewer',
  want: 'viewer',
}
