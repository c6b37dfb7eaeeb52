// Walks every registered route (the app records them through an onRoute hook added before any
// route), so a route added later is covered without touching this test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  isGuardedPath,
  isPublicRoute,
  isReadMethod,
  PUBLIC_ROUTES,
} from '../../../../src/server/auth/guard.ts'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from './auth-helpers.ts'

let fresh: AuthTestServer
let server: AuthTestServer
let creds: Credentials
beforeAll(async () => {
  fresh = await startAuthServer()
  server = await startAuthServer()
  creds = await quickSetup(server)
})
afterAll(async () => {
  await fresh.close()
  await server.close()
})

/** A concrete path for a route pattern: parameters and wildcards get a dummy value. */
const concrete = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, 'dummy').replace(/\*/g, 'dummy')

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

  it('leaves the SPA paths public', async () => {
    const res = await server.call('GET', '/settings/security')
    // No built SPA in unit tests: 503 with instructions, but not 401.
    expect(res.status).toBe(503)
  })
})
