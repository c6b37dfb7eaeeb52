import { RotateCcw } from 'lucide-react'
import { useId } from 'react'
import { useSnapshot } from 'valtio'
import type { BackupAlertConfig } from '../../shared/model/alerts.ts'
import {
  clampBackupDays,
  clampGraceMinutes,
  DEFAULT_BACKUP_ALERTS,
} from '../../shared/views/alert-threshold-backups.ts'
import { BUTTON } from '../components/button-classes.ts'
import { Card } from '../components/Card.tsx'
import { Switch } from '../components/Switch.tsx'
import { alertConfigState, updateAlertConfig } from './config-store.ts'
import { Field, Group } from './threshold-fields.tsx'
import { ThresholdInput } from './ThresholdInput.tsx'

type Flag = 'enabled' | 'notBackedUp' | 'failedJobs' | 'pbsJobs' | 'verification' | 'orphaned'

const FLAGS: { key: Flag; label: string }[] = [
  { key: 'enabled', label: 'Backup alerts' },
  { key: 'notBackedUp', label: 'Not in a backup job' },
  { key: 'failedJobs', label: 'Failed backup jobs' },
  { key: 'pbsJobs', label: 'PBS job failed or overdue' },
  { key: 'verification', label: 'Failed verification' },
  { key: 'orphaned', label: 'Orphaned backups' },
]

type NumberKey = 'ageWarningDays' | 'ageCriticalDays' | 'overdueGraceMinutes'

const NUMBERS: {
  key: NumberKey
  field: string
  label: string
  unit: string
  parse: (text: string) => number
}[] = [
  {
    key: 'ageWarningDays',
    field: 'Warning after',
    label: 'Backup age warning days',
    unit: 'd',
    parse: clampBackupDays,
  },
  {
    key: 'ageCriticalDays',
    field: 'Critical after',
    label: 'Backup age critical days',
    unit: 'd',
    parse: clampBackupDays,
  },
  {
    key: 'overdueGraceMinutes',
    field: 'PBS job overdue grace',
    label: 'PBS job overdue grace minutes',
    unit: 'min',
    parse: clampGraceMinutes,
  },
]

const set = (change: (b: BackupAlertConfig) => void) =>
  updateAlertConfig((config) => {
    change(config.backups)
  })

/**
 * The Backups card of the Thresholds tab (issue 26): the backup alert defaults. Guests' and PBS
 * servers' own settings are in their rows; custom rules can switch "not in a backup job" on for a
 * tag. Edits go to the working config and the unsaved-changes bar, like every other card.
 */
export function BackupsCard() {
  const { working } = useSnapshot(alertConfigState)
  const baseId = useId()
  if (!working?.backups) return null
  const b = working.backups
  return (
    <Card
      title="Backups"
      description="Backup age, guests in no backup job, failed backup and PBS jobs. 0 days turns an age level off."
      actions={
        <button
          type="button"
          className={BUTTON.secondary}
          onClick={() => set((backups) => Object.assign(backups, DEFAULT_BACKUP_ALERTS))}
        >
          <RotateCcw className="size-4" aria-hidden />
          Reset backups
        </button>
      }
    >
      <div className="grid gap-4 lg:grid-cols-2">
        <Group title="Backup age">
          {NUMBERS.map(({ key, field, label, unit, parse }) => (
            <Field key={key} label={field}>
              <ThresholdInput
                label={label}
                value={b[key]}
                parse={parse}
                unit={unit}
                onCommit={(value) => set((backups) => void (backups[key] = value))}
              />
            </Field>
          ))}
        </Group>
        <Group title="Alert on">
          {FLAGS.map(({ key, label }) => (
            <Field key={key} label={label} htmlFor={`${baseId}-${key}`}>
              <Switch
                id={`${baseId}-${key}`}
                checked={b[key]}
                disabled={key !== 'enabled' && !b.enabled}
                onChange={(on) => set((backups) => void (backups[key] = on))}
              />
            </Field>
          ))}
        </Group>
      </div>
    </Card>
  )
}
