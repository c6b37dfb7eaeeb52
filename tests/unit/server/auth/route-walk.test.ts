// Walks every registered route (the app records them through an onRoute hook added before any
// route), so a route added later is covered without touching this test.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  isGuardedPath,
  isPublicRoute,
  isReadMethod,
  PUBLIC_ROUTES,
} from '../../../../src/server/auth/guard.ts'
import { readProxyAuthConfig } from '../../../../src/server/auth/proxy-auth.ts'
import { ROUTE_ROLES, routeAccess } from '../../../../src/server/auth/route-roles.ts'
import { hasRole, type Role } from '../../../../src/shared/model/roles.ts'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from './auth-helpers.ts'

let fresh: AuthTestServer
let server: AuthTestServer
let proxied: AuthTestServer
let creds: Credentials
const PROXY_SECRET = 'proxy-shared-secret-route-walk'
beforeAll(async () => {
  fresh = await startAuthServer()
  server = await startAuthServer()
  creds = await quickSetup(server)
  proxied = await startAuthServer({
    proxyAuth: readProxyAuthConfig({ PROXY_AUTH_SECRET: PROXY_SECRET })!,
  })
})
afterAll(async () => {
  await fresh.close()
  await server.close()
  await proxied.close()
})

/** A concrete path for a route pattern: parameters and wildcards get a dummy value. */
const concrete = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, 'dummy').replace(/\*/g, 'dummy')

const proxiedRoutes = () => [
  ...new Map(proxied.ctx.app.routes.map((r) => [`${r.method} ${r.url}`, r])).values(),
]

const routes = () => {
  const seen = new Set<string>()
  return server.ctx.app.routes.filter(({ method, url }) => {
    const key = `${method} ${url}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

describe('route walk', () => {
  it('sees the routes of every area, and every public route exists', () => {
    const keys = routes().map((r) => `${r.method} ${r.url}`)
    for (const key of [
      'GET /api/state',
      'POST /api/config/nodes',
      'GET /ws',
      'PUT /api/guests/metadata/*',
    ]) {
      expect(keys).toContain(key)
    }
    for (const publicRoute of PUBLIC_ROUTES) expect(keys).toContain(publicRoute)
  })

  it('answers 401 to an unauthenticated call of every protected route', async () => {
    const guarded = routes().filter((r) => isGuardedPath(r.url) && !isPublicRoute(r.method, r.url))
    expect(guarded.length).toBeGreaterThan(10)
    for (const { method, url } of guarded) {
      const path = concrete(url)
      const configured = await server.call(method, path)
      expect(configured.status, `${method} ${path}`).toBe(401)
      if (method !== 'HEAD')
        expect(configured.json?.code, `${method} ${path}`).toBe('AUTH_REQUIRED')
      const unconfigured = await fresh.call(method, path)
      expect(unconfigured.status, `${method} ${path} (fresh)`).toBe(401)
      if (method !== 'HEAD') expect(unconfigured.json?.code).toBe('AUTH_NOT_CONFIGURED')
    }
  })

  it('answers 403 to a cookie session without CSRF on every state-changing route', async () => {
    const changing = routes().filter((r) => isGuardedPath(r.url) && !isReadMethod(r.method))
    expect(changing.length).toBeGreaterThan(5)
    for (const { method, url } of changing) {
      const path = concrete(url)
      const res = await server.call(method, path, { cookies: creds.cookies, body: {} })
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(res.json?.code, `${method} ${path}`).toBe('CSRF_INVALID')
    }
    // The session is still alive: nothing above changed state.
    expect((await server.call('GET', '/api/state', { cookies: creds.cookies })).status).toBe(200)
  })

  it('answers 401 to unknown /api paths rather than revealing what exists', async () => {
    expect((await server.call('GET', '/api/no-such-thing')).status).toBe(401)
    expect((await server.call('DELETE', '/api/config/nodes')).status).toBe(401)
    const known = await server.call('GET', '/api/no-such-thing', { token: creds.apiToken })
    expect(known.status).toBe(404)
  })

  it('declares the role of every route under /api and /ws, and nothing that is not a route', () => {
    const guarded = routes().filter((r) => isGuardedPath(r.url))
    const missing = guarded
      .filter((r) => routeAccess(r.method, r.url) === undefined)
      .map((r) => `${r.method} ${r.url}`)
    expect(missing, 'routes without a role in src/server/auth/route-roles.ts').toEqual([])
    const registered = new Set(guarded.map((r) => `${r.method} ${r.url}`))
    const stale = Object.keys(ROUTE_ROLES).filter((key) => !registered.has(key))
    expect(stale, 'roles of routes that do not exist').toEqual([])
  })

  // An operator: a proxy user without the admin role. What an operator may not call is refused
  // by the role check before its handler runs; what it may call runs (reads, and writes with a
  // body no route accepts as a change). An admin may call everything, so walking the admin would
  // only run the admin routes (discovery, import, updates); viewers come with scoped users.
  it('refuses an operator every admin route by its role, and no other route', async () => {
    const options = {
      headers: { 'x-proxy-secret': PROXY_SECRET, 'x-remote-user': 'olga' },
      cookies: { pulse_csrf: 'c'.repeat(43) },
      csrf: 'c'.repeat(43),
    }
    const guarded = proxiedRoutes().filter(
      (r) =>
        isGuardedPath(r.url) &&
        routeAccess(r.method, r.url) !== 'public' &&
        r.url !== '/ws' &&
        r.method !== 'HEAD',
    )
    expect(guarded.filter((r) => routeAccess(r.method, r.url) === 'admin').length).toBeGreaterThan(
      20,
    )
    for (const { method, url } of guarded) {
      const path = concrete(url)
      const needed = routeAccess(method, url) as Role
      const res = await proxied.call(method, path, {
        ...options,
        ...(isReadMethod(method) ? {} : { body: { alertIds: ['dummy'] } }),
      })
      const refused = res.status === 403 && res.json?.code === 'ROLE_REQUIRED'
      expect(refused, `${method} ${path} (operator, needs ${needed}): ${res.status}`).toBe(
        !hasRole('operator', needed),
      )
      if (refused) expect(res.json?.message).toBe(`This needs the ${needed} role; you are operator`)
    }
  })

  // API tokens with a role (issue 29 item 4): a viewer token and an operator token walk every
  // route; the guard refuses each exactly the routes above its role, before any handler runs.
  it('refuses a viewer token and an operator token exactly the routes above their role', async () => {
    const guarded = routes().filter(
      (r) =>
        isGuardedPath(r.url) &&
        routeAccess(r.method, r.url) !== 'public' &&
        r.url !== '/ws' &&
        r.method !== 'HEAD',
    )
    for (const role of ['viewer', 'operator'] as const) {
      const created = await server.call('POST', '/api/security/tokens', {
        token: creds.apiToken,
        body: { name: `walk-${role}`, role },
      })
      expect(created.status, created.text).toBe(201)
      const token = created.json.token as string
      for (const { method, url } of guarded) {
        const path = concrete(url)
        const needed = routeAccess(method, url) as Role
        const res = await server.call(method, path, {
          token,
          ...(isReadMethod(method) ? {} : { body: { alertIds: ['dummy'] } }),
        })
        const refused = res.status === 403 && res.json?.code === 'ROLE_REQUIRED'
        expect(refused, `${method} ${path} (${role} token, needs ${needed}): ${res.status}`).toBe(
          !hasRole(role, needed),
        )
      }
    }
    // Nothing the tokens were refused ran: the tokens are still the three.
    const list = await server.call('GET', '/api/security/tokens', { token: creds.apiToken })
    expect(list.json.tokens).toHaveLength(3)
  })

  it('is the table the README carries', () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8')
    const rows = new Map<string, Set<string>>()
    for (const line of readme.split('\n')) {
      const row = /^\| (public|viewer|operator|admin) +\| (.*) \|$/.exec(line)
      if (row) rows.set(row[1]!, new Set([...row[2]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)))
    }
    for (const [route, access] of Object.entries(ROUTE_ROLES)) {
      expect(rows.get(access)?.has(route), `README: ${route} under ${access}`).toBe(true)
    }
    const listed = [...rows.values()].reduce((n, set) => n + set.size, 0)
    expect(listed).toBe(Object.keys(ROUTE_ROLES).length)
  })

  it('leaves the SPA paths public', async () => {
    const res = await server.call('GET', '/settings/security')
    // No built SPA in unit tests: 503 with instructions, but not 401.
    expect(res.status).toBe(503)
  })
})
