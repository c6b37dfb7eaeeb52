// The wall view (issue 28 item 7): `?kiosk=1` on a live route shows that route alone, without
// header, tabs, sub-tabs, banners and footer, in larger type, for a screen on the wall. The flag
// lives in the URL only, so a wall screen's bookmark or a reload keeps it.
import { useLocation, useSearch } from 'wouter'

/** The query parameter of the wall view. */
export const WALL_VIEW_PARAM = 'kiosk'

/** The routes a wall shows: the live tabs and the alerts overview. */
const WALL_ROUTES: ReadonlySet<string> = new Set([
  '/',
  '/storage',
  '/backups',
  '/backups/coverage',
  '/backups/jobs',
  '/alerts/overview',
])

/** True when `path` (no query) can be shown as a wall. */
export function isWallRoute(path: string): boolean {
  return WALL_ROUTES.has(path)
}

/** True when the query string (with or without '?') asks for the wall view. */
export function asksWallView(search: string): boolean {
  const value = new URLSearchParams(search).get(WALL_VIEW_PARAM)
  return value === '1' || value === 'true'
}

/** The wall view of `path`, or of the main dashboard when `path` is no live route. */
export function wallViewHref(path: string): string {
  return `${isWallRoute(path) ? path : '/'}?${WALL_VIEW_PARAM}=1`
}

/** Where a jump from the palette goes: a live route stays on the wall, any other leaves it. */
export function keepWallView(href: string, wallView: boolean): string {
  if (!wallView || href === '') return href
  const [path = '', query = ''] = href.split('?')
  if (!isWallRoute(path)) return href
  const params = new URLSearchParams(query)
  params.set(WALL_VIEW_PARAM, '1')
  return `${path}?${params.toString()}`
}

/** Whether the wall view is on: asked for in the URL, on a route that can be a wall. */
export function useWallView(): boolean {
  const [path] = useLocation()
  const search = useSearch()
  return asksWallView(search) && isWallRoute(path)
}
