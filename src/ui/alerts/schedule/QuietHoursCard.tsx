import { Moon } from 'lucide-react'
import { useId } from 'react'
import { useSnapshot } from 'valtio'
import { WEEKDAYS, type Weekday } from '../../../shared/model/alerts.ts'
import { parseTimeOfDay, weekdayLabel } from '../../../shared/views/schedule-rules.ts'
import { quietHoursHeldClause } from '../../../shared/views/schedule-summary.ts'
import { FOCUS_RING } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { alertConfigState } from '../config-store.ts'
import { CardSwitch, CheckRow, Row, updateSchedule } from './fields.tsx'
import { ZoneSelect } from './ZoneSelect.tsx'

const DAY_LABELS: Record<Weekday, { short: string; long: string }> = {
  monday: { short: 'Mon', long: 'Monday' },
  tuesday: { short: 'Tue', long: 'Tuesday' },
  wednesday: { short: 'Wed', long: 'Wednesday' },
  thursday: { short: 'Thu', long: 'Thursday' },
  friday: { short: 'Fri', long: 'Friday' },
  saturday: { short: 'Sat', long: 'Saturday' },
  sunday: { short: 'Sun', long: 'Sunday' },
}

// `suppress` as the reference means it (issue 24 item 12): critical alerts are sent during quiet
// hours, and a set flag holds that category's critical alerts too.
const HELD_TOO = [
  {
    key: 'performance',
    text: 'Hold critical performance alerts too (CPU, memory, disk, I/O, temperature)',
  },
  {
    key: 'storage',
    text: 'Hold critical storage alerts too (usage, disk health, ZFS)',
  },
  {
    key: 'offline',
    text: 'Hold critical offline alerts too (nodes, guests, PBS unreachable or powered off)',
  },
] as const

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

const TIME_INPUT = `rounded border border-gray-300 bg-white px-1.5 py-1 text-sm tabular-nums dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 dark:[color-scheme:dark] ${FOCUS_RING}`

/** Quiet hours (spec 001 §2 Schedule): when warnings, and chosen critical categories, wait. */
export function QuietHoursCard() {
  const { working } = useSnapshot(alertConfigState)
  const id = useId()
  const quiet = working?.schedule.quietHours
  if (!quiet) return null
  const label = weekdayLabel(quiet.days)
  const setTime = (field: 'start' | 'end') => (text: string) => {
    const value = parseTimeOfDay(text)
    if (value === null) return
    updateSchedule((schedule) => {
      if (schedule.quietHours[field] === value) return false
      schedule.quietHours[field] = value
    })
  }
  return (
    <Card
      title="Quiet hours"
      icon={<Moon className="size-4" aria-hidden />}
      description="Warnings wait until quiet hours end and then go out as one summary. Critical alerts are sent at once unless their category is held below."
      actions={
        <CardSwitch
          label="Enable quiet hours"
          checked={quiet.enabled}
          onChange={(enabled) =>
            updateSchedule((schedule) => {
              schedule.quietHours.enabled = enabled
            })
          }
        />
      }
    >
      <div className="flex flex-col">
        <Row label="Start" htmlFor={`${id}-start`}>
          <input
            id={`${id}-start`}
            type="time"
            value={quiet.start}
            onChange={(event) => setTime('start')(event.target.value)}
            className={TIME_INPUT}
          />
        </Row>
        <Row
          label="End"
          htmlFor={`${id}-end`}
          hint="An end before the start runs overnight: 22:00 to 08:00 ends the next morning."
        >
          <input
            id={`${id}-end`}
            type="time"
            value={quiet.end}
            onChange={(event) => setTime('end')(event.target.value)}
            className={TIME_INPUT}
          />
        </Row>
        <Row label="Time zone" htmlFor={`${id}-zone`} wide>
          <ZoneSelect
            id={`${id}-zone`}
            value={quiet.timezone}
            onChange={(zone) =>
              updateSchedule((schedule) => {
                schedule.quietHours.timezone = zone
              })
            }
            className="w-full min-w-0 sm:w-auto sm:max-w-xs"
          />
        </Row>
        <div className="py-1.5">
          <div className="mb-1.5 flex flex-wrap items-baseline justify-between gap-2 text-sm">
            <span id={`${id}-days`} className="text-gray-800 dark:text-gray-200">
              Days
            </span>
            {label && (
              <span role="status" className="text-xs font-medium text-blue-700 dark:text-blue-300">
                {label}
              </span>
            )}
          </div>
          <p id={`${id}-days-hint`} className="mb-1.5 text-xs text-gray-500 dark:text-gray-400">
            The day it is decides: with 22:00-08:00 on Monday to Friday, Monday 02:00 is quiet and
            Saturday 02:00 is not.
          </p>
          <div
            role="group"
            aria-labelledby={`${id}-days`}
            aria-describedby={`${id}-days-hint`}
            className="grid grid-cols-7 gap-1"
          >
            {WEEKDAYS.map((day) => {
              const on = quiet.days[day]
              return (
                <button
                  key={day}
                  type="button"
                  aria-pressed={on}
                  aria-label={DAY_LABELS[day].long}
                  onClick={() =>
                    updateSchedule((schedule) => {
                      schedule.quietHours.days[day] = !on
                    })
                  }
                  className={`rounded-md border px-1 py-1.5 text-xs font-medium ${FOCUS_RING} ${
                    on
                      ? 'border-blue-600 bg-blue-600 text-white'
                      : 'border-gray-300 bg-white text-gray-700 hover:bg-gray-50 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-300 dark:hover:bg-gray-700'
                  }`}
                >
                  {DAY_LABELS[day].short}
                </button>
              )
            })}
          </div>
        </div>
        <fieldset className="mt-1 min-w-0">
          <legend className="mb-1 text-xs font-semibold tracking-wide text-gray-500 uppercase dark:text-gray-400">
            Critical alerts
          </legend>
          {HELD_TOO.map(({ key, text }) => (
            <CheckRow
              key={key}
              label={text}
              checked={quiet.suppress[key]}
              onChange={(checked) =>
                updateSchedule((schedule) => {
                  schedule.quietHours.suppress[key] = checked
                })
              }
            />
          ))}
          <p
            role="status"
            aria-label="During quiet hours"
            className="mt-1 text-xs text-gray-600 dark:text-gray-400"
          >
            {capitalize(quietHoursHeldClause(quiet.suppress))}.
          </p>
        </fieldset>
      </div>
    </Card>
  )
}
