import { Plus, Siren, Trash2 } from 'lucide-react'
import { useId } from 'react'
import { useSnapshot } from 'valtio'
import type { AlertSchedule } from '../../../shared/model/alerts.ts'
import {
  ESCALATION_LEVELS_MAX,
  newEscalationLevel,
  parseEscalationAfter,
} from '../../../shared/views/schedule-rules.ts'
import { BUTTON, FOCUS_RING } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { alertConfigState } from '../config-store.ts'
import { ThresholdInput } from '../ThresholdInput.tsx'
import { CardSwitch, SELECT, updateSchedule } from './fields.tsx'

type Notify = AlertSchedule['escalation']['levels'][number]['notify']

const NOTIFY_OPTIONS: readonly { value: Notify; label: string }[] = [
  { value: 'email', label: 'Email' },
  { value: 'webhook', label: 'Webhook' },
  { value: 'all', label: 'All channels' },
]

/** Escalation levels (spec 001 §2, §5): re-notify unacknowledged alerts after 5-180 minutes. */
export function EscalationCard() {
  const { working } = useSnapshot(alertConfigState)
  const id = useId()
  if (!working) return null
  const { escalation } = working.schedule
  const full = escalation.levels.length >= ESCALATION_LEVELS_MAX
  return (
    <Card
      title="Alert escalation"
      icon={<Siren className="size-4" aria-hidden />}
      description="Notify again while an alert stays unacknowledged; acknowledging it stops escalation."
      actions={
        <CardSwitch
          label="Enable escalation"
          checked={escalation.enabled}
          onChange={(on) =>
            updateSchedule((schedule) => {
              schedule.escalation.enabled = on
            })
          }
        />
      }
    >
      {escalation.levels.length === 0 ? (
        <p className="py-1 text-sm text-gray-600 dark:text-gray-400">No escalation levels yet.</p>
      ) : (
        <ol className="flex flex-col gap-1.5">
          {escalation.levels.map((level, index) => {
            const n = index + 1
            return (
              <li
                // Levels have no identity of their own; position is what the user sees.
                key={index}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-gray-200 px-2 py-1.5 text-sm dark:border-gray-700"
              >
                <span className="w-14 font-medium text-gray-700 dark:text-gray-300">Level {n}</span>
                <label className="flex items-center gap-1 text-gray-700 dark:text-gray-300">
                  after
                  <ThresholdInput
                    label={`Level ${n} after minutes`}
                    value={level.after}
                    parse={(text) => parseEscalationAfter(text, level.after)}
                    unit="min"
                    onCommit={(value) =>
                      updateSchedule((schedule) => {
                        const target = schedule.escalation.levels[index]
                        if (target) target.after = value
                      })
                    }
                  />
                </label>
                <label htmlFor={`${id}-notify-${index}`} className="sr-only">
                  Level {n} notify
                </label>
                <select
                  id={`${id}-notify-${index}`}
                  value={level.notify}
                  onChange={(event) => {
                    const notify = event.target.value as Notify
                    updateSchedule((schedule) => {
                      const target = schedule.escalation.levels[index]
                      if (target) target.notify = notify
                    })
                  }}
                  className={SELECT}
                >
                  {NOTIFY_OPTIONS.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
                <button
                  type="button"
                  aria-label={`Remove escalation level ${n}`}
                  onClick={() =>
                    updateSchedule((schedule) => {
                      schedule.escalation.levels.splice(index, 1)
                    })
                  }
                  className={`ml-auto rounded p-1 text-gray-500 hover:bg-gray-100 hover:text-red-600 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-red-400 ${FOCUS_RING}`}
                >
                  <Trash2 className="size-4" aria-hidden />
                </button>
              </li>
            )
          })}
        </ol>
      )}
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <button
          type="button"
          className={`${BUTTON.secondary} disabled:opacity-60`}
          disabled={full}
          onClick={() =>
            updateSchedule((schedule) => {
              schedule.escalation.levels.push(newEscalationLevel(schedule.escalation.levels))
            })
          }
        >
          <Plus className="size-4" aria-hidden />
          Add escalation level
        </button>
        {full && (
          <span className="text-xs text-gray-500 dark:text-gray-400">
            At most {ESCALATION_LEVELS_MAX} levels.
          </span>
        )}
      </div>
    </Card>
  )
}
