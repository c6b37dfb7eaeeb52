import { Redirect } from 'wouter'
import { OverviewTab } from '../alerts/OverviewTab.tsx'
import { CustomRulesTab } from '../alerts/CustomRulesTab.tsx'
import { ThresholdsTab } from '../alerts/ThresholdsTab.tsx'
import { UnsavedBar } from '../alerts/UnsavedBar.tsx'
import { HistoryTab } from '../alerts/HistoryTab.tsx'
import { ScheduleTab } from '../alerts/ScheduleTab.tsx'
import { NotificationsTab } from '../alerts/NotificationsTab.tsx'
import { Placeholder } from './Placeholder.tsx'
import { SubTabs } from './SubTabs.tsx'

/** Alerts sub-routes (spec 001 §2 Routes); custom-rules exists but is not in the tab bar. */
export const ALERT_TABS = {
  overview: { label: 'Overview', text: 'Active alerts with acknowledge and un-acknowledge.' },
  thresholds: {
    label: 'Thresholds',
    text: 'Per-metric alert thresholds for guests, nodes and storage.',
  },
  destinations: { label: 'Notifications', text: 'Email and webhook destinations for alerts.' },
  schedule: { label: 'Schedule', text: 'Quiet hours, cooldown and grouping of notifications.' },
  history: { label: 'History', text: 'Past alerts with their duration and resolution.' },
  'custom-rules': { label: 'Custom rules', text: 'No custom rules yet.' },
} as const

type AlertTab = keyof typeof ALERT_TABS

const NAV = (['overview', 'thresholds', 'destinations', 'schedule', 'history'] as const).map(
  (tab) => ({ path: `/alerts/${tab}`, label: ALERT_TABS[tab].label }),
)

function isAlertTab(tab: string | undefined): tab is AlertTab {
  return tab !== undefined && Object.hasOwn(ALERT_TABS, tab)
}

/** The alerts area; an unknown or empty sub-path redirects (replace) to the overview. */
export function AlertsPage({ tab }: { tab: string | undefined }) {
  if (!isAlertTab(tab)) return <Redirect to="/alerts/overview" replace />
  const info = ALERT_TABS[tab]
  return (
    <div>
      <SubTabs label="Alerts" tabs={NAV} active={`/alerts/${tab}`} />
      {tab === 'overview' ? (
        <OverviewTab />
      ) : tab === 'thresholds' ? (
        <ThresholdsTab />
      ) : tab === 'custom-rules' ? (
        <CustomRulesTab />
      ) : tab === 'history' ? (
        <HistoryTab />
      ) : tab === 'schedule' ? (
        <ScheduleTab />
      ) : tab === 'destinations' ? (
        <NotificationsTab />
      ) : (
        <Placeholder title={`Alerts ${info.label}`} description={info.text} />
      )}
      {tab !== 'overview' && tab !== 'history' && <UnsavedBar />}
    </div>
  )
}
