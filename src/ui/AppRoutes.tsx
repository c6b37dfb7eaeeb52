import { Route, Switch } from 'wouter'
import { BackupsTab } from './backups/BackupsTab.tsx'
import { DashboardPage } from './dashboard/DashboardPage.tsx'
import { AlertsPage } from './pages/AlertsPage.tsx'
import { NotFoundPage } from './pages/NotFoundPage.tsx'
import { SettingsPage } from './pages/SettingsPage.tsx'
import { StoragePage } from './storage/StoragePage.tsx'
import { ResourcePage, type ResourcePageProps } from './resource/ResourcePage.tsx'

/** Routes of spec 001 §2. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/">
        <DashboardPage />
      </Route>
      <Route path="/storage">
        <StoragePage />
      </Route>
      {/* Resource pages (issue 25); the id is one URL segment (resourcePagePath encodes it). */}
      <Route path="/guests/:id">{(params) => resourcePage('guest', params.id)}</Route>
      <Route path="/nodes/:id">{(params) => resourcePage('node', params.id)}</Route>
      <Route path="/storage/:id">{(params) => resourcePage('storage', params.id)}</Route>
      <Route path="/pbs/:id">{(params) => resourcePage('pbs', params.id)}</Route>
      <Route path="/backups/*?">{(params) => <BackupsTab sub={params['*']} />}</Route>
      <Route path="/alerts/*?">{(params) => <AlertsPage tab={tabOf(params['*'])} />}</Route>
      <Route path="/settings/*?">{(params) => <SettingsPage tab={tabOf(params['*'])} />}</Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  )
}

/** A resource page, keyed so another id starts fresh (charts, alert history). */
function resourcePage(kind: ResourcePageProps['kind'], raw: string) {
  let id = raw
  try {
    id = decodeURIComponent(raw)
  } catch {
    // A malformed escape: the raw text is the id, and the page says it is not found.
  }
  return <ResourcePage key={`${kind}:${id}`} kind={kind} id={id} />
}

/** The sub-route name when the rest of the path is exactly one segment. */
function tabOf(rest: string | undefined): string | undefined {
  if (!rest || rest.includes('/')) return undefined
  return rest
}
