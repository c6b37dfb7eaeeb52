import { Route, Switch } from 'wouter'
import { BackupsPage } from './backups/BackupsPage.tsx'
import { DashboardPage } from './dashboard/DashboardPage.tsx'
import { AlertsPage } from './pages/AlertsPage.tsx'
import { NotFoundPage } from './pages/NotFoundPage.tsx'
import { SettingsPage } from './pages/SettingsPage.tsx'
import { StoragePage } from './storage/StoragePage.tsx'

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
      <Route path="/backups">
        <BackupsPage />
      </Route>
      <Route path="/alerts/*?">{(params) => <AlertsPage tab={tabOf(params['*'])} />}</Route>
      <Route path="/settings/*?">{(params) => <SettingsPage tab={tabOf(params['*'])} />}</Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  )
}

/** The sub-route name when the rest of the path is exactly one segment. */
function tabOf(rest: string | undefined): string | undefined {
  if (!rest || rest.includes('/')) return undefined
  return rest
}
