import { Route, Switch } from 'wouter'
import { DashboardPage } from './dashboard/DashboardPage.tsx'
import { AlertsPage } from './pages/AlertsPage.tsx'
import { NotFoundPage } from './pages/NotFoundPage.tsx'
import { Placeholder } from './pages/Placeholder.tsx'
import { SettingsPage } from './pages/SettingsPage.tsx'

/** Routes of spec 001 §2. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/">
        <DashboardPage />
      </Route>
      <Route path="/storage">
        <Placeholder
          title="Storage"
          description="Storage pools and physical disks per node, with usage, health and Ceph status."
        />
      </Route>
      <Route path="/backups">
        <Placeholder
          title="Backups"
          description="Snapshots, PVE and PBS backups with a daily activity chart and filters."
        />
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
