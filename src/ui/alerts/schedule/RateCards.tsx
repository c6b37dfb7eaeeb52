// Cooldown, smart grouping and storm control (spec 001 §2 Schedule, §5 ranges): how often and in
// what bundles notifications go out.
import { Layers, Timer, Zap } from 'lucide-react'
import { useId, useRef } from 'react'
import { useSnapshot } from 'valtio'
import {
  COOLDOWN_DEFAULT,
  GROUPING_MINUTES_MAX,
  GROUPING_MINUTES_MIN,
  clampCooldown,
  clampMaxPerHour,
  clampStormThreshold,
  groupingMinutes,
  setGroupingMinutes,
} from '../../../shared/views/schedule-rules.ts'
import { Card } from '../../components/Card.tsx'
import { alertConfigState } from '../config-store.ts'
import { ThresholdInput } from '../ThresholdInput.tsx'
import { CardSwitch, CheckRow, Row, updateSchedule } from './fields.tsx'

/** Cooldown (0 = off, else 5-120 min) and max alerts per hour (1-10). */
export function CooldownCard() {
  const { working } = useSnapshot(alertConfigState)
  const id = useId()
  // Switching cooldown off stores 0; switching it back on returns to the last minutes used.
  const lastOn = useRef(COOLDOWN_DEFAULT)
  if (!working) return null
  const { cooldown, maxAlertsHour } = working.schedule
  if (cooldown > 0) lastOn.current = cooldown
  return (
    <Card
      title="Alert cooldown"
      icon={<Timer className="size-4" aria-hidden />}
      description="Time between repeat notifications of one occurrence of an alert. An alert that recovers and fires again is a new occurrence and is sent at once; recoveries are always sent."
      actions={
        <CardSwitch
          label="Enable cooldown"
          checked={cooldown > 0}
          onChange={(on) =>
            updateSchedule((schedule) => {
              schedule.cooldown = on ? lastOn.current : 0
            })
          }
        />
      }
    >
      {cooldown > 0 && (
        <Row label="Cooldown period" htmlFor={`${id}-cooldown`} hint="5 to 120 minutes">
          <ThresholdInput
            id={`${id}-cooldown`}
            label="Cooldown minutes"
            value={cooldown}
            parse={(text) => clampCooldown(text, cooldown)}
            unit="min"
            onCommit={(value) =>
              updateSchedule((schedule) => {
                schedule.cooldown = value
              })
            }
          />
        </Row>
      )}
      <Row label="Max alerts per hour" htmlFor={`${id}-max`} hint="Per alert, 1 to 10">
        <ThresholdInput
          id={`${id}-max`}
          label="Max alerts per hour"
          value={maxAlertsHour}
          parse={(text) => clampMaxPerHour(text, maxAlertsHour)}
          onCommit={(value) =>
            updateSchedule((schedule) => {
              schedule.maxAlertsHour = value
            })
          }
        />
      </Row>
    </Card>
  )
}

/** Smart grouping: a 1-30 minute window, stored in seconds in both fields of the schedule. */
export function GroupingCard() {
  const { working } = useSnapshot(alertConfigState)
  const id = useId()
  if (!working) return null
  const { grouping, groupingWindow } = working.schedule
  const minutes = groupingMinutes(groupingWindow)
  const unit = minutes === 1 ? 'minute' : 'minutes'
  return (
    <Card
      title="Smart grouping"
      icon={<Layers className="size-4" aria-hidden />}
      description="Alerts that fire within the window go out together, one message per destination."
      actions={
        <CardSwitch
          label="Enable grouping"
          checked={grouping.enabled}
          onChange={(on) =>
            updateSchedule((schedule) => {
              schedule.grouping.enabled = on
            })
          }
        />
      }
    >
      <Row label="Grouping window" htmlFor={`${id}-window`}>
        <input
          id={`${id}-window`}
          type="range"
          min={GROUPING_MINUTES_MIN}
          max={GROUPING_MINUTES_MAX}
          step={1}
          value={minutes}
          aria-valuetext={`${minutes} ${unit}`}
          onChange={(event) => {
            const next = Number(event.target.value)
            updateSchedule((schedule) => {
              if (groupingMinutes(schedule.groupingWindow) === next) return false
              setGroupingMinutes(schedule, next)
            })
          }}
          className="w-40 accent-blue-600 sm:w-48"
        />
        <output htmlFor={`${id}-window`} className="w-20 text-sm tabular-nums">
          {minutes} {unit}
        </output>
      </Row>
      <CheckRow
        label="Group by node"
        checked={grouping.byNode}
        onChange={(on) =>
          updateSchedule((schedule) => {
            schedule.grouping.byNode = on
          })
        }
      />
      <CheckRow
        label="Group by guest"
        checked={grouping.byGuest}
        onChange={(on) =>
          updateSchedule((schedule) => {
            schedule.grouping.byGuest = on
          })
        }
      />
    </Card>
  )
}

/** Storm control: one summary instead of many alerts in one window. */
export function StormCard() {
  const { working } = useSnapshot(alertConfigState)
  const id = useId()
  if (!working) return null
  const { storm } = working.schedule
  return (
    <Card
      title="Storm control"
      icon={<Zap className="size-4" aria-hidden />}
      description={`When more than ${storm.threshold} alerts fire within one grouping window, send one summary instead.`}
      actions={
        <CardSwitch
          label="Enable storm control"
          checked={storm.enabled}
          onChange={(on) =>
            updateSchedule((schedule) => {
              schedule.storm.enabled = on
            })
          }
        />
      }
    >
      <Row label="Summary above" htmlFor={`${id}-storm`} hint="2 to 10000 alerts">
        <ThresholdInput
          id={`${id}-storm`}
          label="Storm threshold"
          value={storm.threshold}
          parse={(text) => clampStormThreshold(text, storm.threshold)}
          unit="alerts"
          onCommit={(value) =>
            updateSchedule((schedule) => {
              schedule.storm.threshold = value
            })
          }
        />
      </Row>
    </Card>
  )
}
