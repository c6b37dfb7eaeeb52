import { Redirect } from 'wouter'
import { DiagnosticsTab } from '../settings/diagnostics/DiagnosticsTab.tsx'
import { NodesTab } from '../settings/nodes/NodesTab.tsx'
import { SecurityTab } from '../settings/security/SecurityTab.tsx'
import { SystemTab } from '../settings/system/SystemTab.tsx'
import { GuestUrlsTab } from '../settings/urls/GuestUrlsTab.tsx'
import { SettingsLayout } from '../components/SettingsLayout.tsx'
import { Placeholder } from './Placeholder.tsx'
import { SubTabs } from './SubTabs.tsx'

/** Settings sub-routes (spec 001 §2 Routes). */
export const SETTINGS_TABS = {
  pve: { label: 'PVE Nodes', text: 'Add, edit, test and remove Proxmox VE nodes; discovery.' },
  pbs: { label: 'PBS Nodes', text: 'Add, edit, test and remove Proxmox Backup Servers.' },
  system: { label: 'System', text: 'Allowed origins, embedding, discovery and updates.' },
  urls: { label: 'Guest URLs', text: 'Custom links per guest shown in the dashboard.' },
  security: {
    label: 'Security',
    text: 'Password login, single sign-on, proxy auth and API token.',
  },
  diagnostics: { label: 'Diagnostics', text: 'Connection tests and a support bundle.' },
} as const

type SettingsTab = keyof typeof SETTINGS_TABS

const NAV = (Object.keys(SETTINGS_TABS) as SettingsTab[]).map((tab) => ({
  path: `/settings/${tab}`,
  label: SETTINGS_TABS[tab].label,
}))

/** The settings area; bare or unknown sub-paths go (replace) to the PVE tab. */
export function SettingsPage({ tab }: { tab: string | undefined }) {
  if (tab === undefined || !Object.hasOwn(SETTINGS_TABS, tab)) {
    return <Redirect to="/settings/pve" replace />
  }
  const info = SETTINGS_TABS[tab as SettingsTab]
  return (
    <div>
      <SubTabs label="Settings" tabs={NAV} active={`/settings/${tab}`} />
      <SettingsLayout>
        {tab === 'pve' || tab === 'pbs' ? (
          // Keyed by type: switching tabs starts the other list afresh.
          <NodesTab key={tab} type={tab} />
        ) : tab === 'security' ? (
          <SecurityTab />
        ) : tab === 'system' ? (
          <SystemTab />
        ) : tab === 'diagnostics' ? (
          <DiagnosticsTab />
        ) : tab === 'urls' ? (
          <GuestUrlsTab />
        ) : (
          <Placeholder title={`Settings ${info.label}`} description={info.text} />
        )}
      </SettingsLayout>
    </div>
  )
}
