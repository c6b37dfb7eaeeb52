import { RotateCcw } from 'lucide-react'
import { useId } from 'react'
import { useSnapshot } from 'valtio'
import {
  GUEST_METRICS,
  NODE_METRICS,
  RESOURCE_CLASSES,
  type AlertConfig,
  type AlertLevel,
  type AlertMetric,
  type ResourceClass,
} from '../../shared/model/alerts.ts'
import { CLEAR_MARGIN, clampThresholdInput } from '../../shared/views/alert-override-edit.ts'
import { BUTTON, FOCUS_RING } from '../components/button-classes.ts'
import { Card } from '../components/Card.tsx'
import { alertConfigState, updateAlertConfig } from './config-store.ts'
import { METRIC_LABELS } from './threshold-labels.ts'
import { Field, Group } from './threshold-fields.tsx'
import { ThresholdInput } from './ThresholdInput.tsx'

/** Spec 001 §9 defaults; the reset gives 150 MB/s for disk I/O and 200 for network (§9). */
const RESET_GUEST: Record<(typeof GUEST_METRICS)[number], number> = {
  cpu: 80,
  memory: 85,
  disk: 90,
  diskRead: 150,
  diskWrite: 150,
  networkIn: 200,
  networkOut: 200,
}
const RESET_NODE: Record<(typeof NODE_METRICS)[number], number> = {
  cpu: 80,
  memory: 85,
  disk: 90,
  temperature: 80,
}
const RESET_STORAGE = 85
const RESET_DELAYS: Record<ResourceClass, number> = { guest: 10, node: 15, storage: 30, pbs: 30 }
const DELAY_LABELS: Record<ResourceClass, string> = {
  guest: 'VMs & containers',
  node: 'Nodes',
  storage: 'Storage',
  pbs: 'PBS',
}
const DELAY_MAX_S = 300

const pair = (trigger: number) => ({ trigger, clear: Math.max(0, trigger - CLEAR_MARGIN) })

/** Spec 001 §5: alert delays are integers from 0 to 300 seconds; anything else becomes 0. */
export function clampDelay(text: string): number {
  const trimmed = text.trim()
  const value = /^\d+$/.test(trimmed) ? Number(trimmed) : 0
  return Math.min(DELAY_MAX_S, value)
}

function resetDefaults(config: AlertConfig): void {
  for (const metric of GUEST_METRICS) config.guestDefaults[metric] = pair(RESET_GUEST[metric])
  for (const metric of NODE_METRICS) config.nodeDefaults[metric] = pair(RESET_NODE[metric])
  config.guestDefaults.poweredOffSeverity = 'warning'
  config.storageDefault = pair(RESET_STORAGE)
  config.timeThresholds = { ...RESET_DELAYS }
}

/** The Global default thresholds card (spec 001 §2 Alerts: thresholds). */
export function DefaultsCard() {
  const { working } = useSnapshot(alertConfigState)
  const severityId = useId()
  if (!working) return null
  const parse = (metric: AlertMetric) => (text: string) =>
    clampThresholdInput(text, metric, 'defaults')
  return (
    <Card
      title="Global default thresholds"
      description="Apply to every resource without its own override. 0 or -1 turns an alert off."
      actions={
        <button
          type="button"
          className={BUTTON.secondary}
          onClick={() => updateAlertConfig(resetDefaults)}
        >
          <RotateCcw className="size-4" aria-hidden />
          Reset to defaults
        </button>
      }
    >
      <div className="grid gap-4 lg:grid-cols-2">
        <Group title="VMs & Containers">
          {GUEST_METRICS.map((metric) => (
            <Field key={metric} label={METRIC_LABELS[metric]}>
              <ThresholdInput
                label={`VMs & Containers ${METRIC_LABELS[metric]}`}
                value={working.guestDefaults[metric].trigger}
                parse={parse(metric)}
                onCommit={(value) =>
                  updateAlertConfig((config) => {
                    config.guestDefaults[metric] = pair(value)
                  })
                }
              />
            </Field>
          ))}
        </Group>
        <div className="grid gap-4">
          <Group title="Nodes">
            {NODE_METRICS.map((metric) => (
              <Field key={metric} label={METRIC_LABELS[metric]}>
                <ThresholdInput
                  label={`Nodes ${METRIC_LABELS[metric]}`}
                  value={working.nodeDefaults[metric].trigger}
                  parse={parse(metric)}
                  onCommit={(value) =>
                    updateAlertConfig((config) => {
                      config.nodeDefaults[metric] = pair(value)
                    })
                  }
                />
              </Field>
            ))}
          </Group>
          <Group title="Storage">
            <Field label={METRIC_LABELS.usage}>
              <ThresholdInput
                label={`Storage ${METRIC_LABELS.usage}`}
                value={working.storageDefault.trigger}
                parse={parse('usage')}
                onCommit={(value) =>
                  updateAlertConfig((config) => {
                    config.storageDefault = pair(value)
                  })
                }
              />
            </Field>
          </Group>
        </div>
        <Group title="Alert delay (seconds before an alert fires)">
          {RESOURCE_CLASSES.map((kind) => (
            <Field key={kind} label={DELAY_LABELS[kind]}>
              <ThresholdInput
                label={`Alert delay ${DELAY_LABELS[kind]}`}
                value={working.timeThresholds[kind]}
                parse={clampDelay}
                unit="s"
                onCommit={(value) =>
                  updateAlertConfig((config) => {
                    config.timeThresholds[kind] = value
                  })
                }
              />
            </Field>
          ))}
        </Group>
        <Group title="Powered-off guests">
          <Field label="Severity" htmlFor={severityId}>
            <select
              id={severityId}
              value={working.guestDefaults.poweredOffSeverity}
              onChange={(event) => {
                const level = event.target.value as AlertLevel
                updateAlertConfig((config) => {
                  config.guestDefaults.poweredOffSeverity = level
                })
              }}
              className={`rounded border border-gray-300 bg-white px-1.5 py-0.5 text-sm dark:border-gray-600 dark:bg-gray-800 ${FOCUS_RING}`}
            >
              <option value="warning">Warning</option>
              <option value="critical">Critical</option>
            </select>
          </Field>
        </Group>
      </div>
    </Card>
  )
}
