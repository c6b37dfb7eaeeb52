import { ListChecks, RotateCcw } from 'lucide-react'
import { useSnapshot } from 'valtio'
import { defaultSchedule } from '../../shared/views/schedule-rules.ts'
import { summarizeSchedule } from '../../shared/views/schedule-summary.ts'
import { BUTTON } from '../components/button-classes.ts'
import { RoleFieldset } from '../auth/RoleFieldset.tsx'
import { Card } from '../components/Card.tsx'
import { EmptyState } from '../components/EmptyState.tsx'
import { alertConfigState, updateAlertConfig } from './config-store.ts'
import { EscalationCard } from './schedule/EscalationCard.tsx'
import { QuietHoursCard } from './schedule/QuietHoursCard.tsx'
import { CooldownCard, GroupingCard, StormCard } from './schedule/RateCards.tsx'
import { useAlertConfigLoad } from './useAlertConfig.ts'

/**
 * Alerts: schedule (spec 001 §2): quiet hours, cooldown, grouping, storm control, escalation and
 * a summary. Edits change the working config only; the unsaved-changes bar writes it.
 */
export function ScheduleTab() {
  const { ready, loadError } = useAlertConfigLoad()
  if (!ready) {
    return loadError ? (
      <EmptyState title="Failed to load alert configuration" description={loadError} live />
    ) : (
      <EmptyState title="Loading alert configuration..." live />
    )
  }
  return (
    <div className="flex flex-col gap-4 p-3 sm:p-4">
      <RoleFieldset needs="admin" what="Changing the schedule">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-gray-600 dark:text-gray-400">
            When and how often notifications are sent.
          </p>
          <button
            type="button"
            className={BUTTON.secondary}
            onClick={() =>
              updateAlertConfig((config) => {
                config.schedule = defaultSchedule(config.schedule.quietHours.timezone)
              })
            }
          >
            <RotateCcw className="size-4" aria-hidden />
            Reset defaults
          </button>
        </div>
        <div className="grid gap-4 lg:grid-cols-2">
          <QuietHoursCard />
          <div className="flex min-w-0 flex-col gap-4">
            <CooldownCard />
            <GroupingCard />
            <StormCard />
          </div>
          <EscalationCard />
          <SummaryCard />
        </div>
      </RoleFieldset>
    </div>
  )
}

function SummaryCard() {
  const { working } = useSnapshot(alertConfigState)
  if (!working) return null
  return (
    <Card title="Configuration summary" icon={<ListChecks className="size-4" aria-hidden />}>
      <ul
        aria-label="Schedule summary"
        className="flex list-disc flex-col gap-1 pl-5 text-sm text-gray-700 dark:text-gray-300"
      >
        {summarizeSchedule(working.schedule).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </Card>
  )
}
