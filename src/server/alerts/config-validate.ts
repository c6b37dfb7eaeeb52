// STAND-IN: replaced by the engine branch. Checks only what the store/service tests exercise.
import type { AlertConfig } from '../../shared/model/alerts.ts'
import { DEFAULT_ALERT_CONFIG } from './config-defaults.ts'

export function parseAlertConfig(
  input: unknown,
): { ok: true; config: AlertConfig } | { ok: false; field: string; message: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { ok: false, field: 'body', message: 'must be an object' }
  const config = { ...DEFAULT_ALERT_CONFIG, ...(input as Partial<AlertConfig>) }
  const cpu = config.guestDefaults?.cpu?.trigger
  if (typeof cpu !== 'number' || cpu < -1 || cpu > 100)
    return { ok: false, field: 'guestDefaults.cpu.trigger', message: 'must be between -1 and 100' }
  return { ok: true, config }
}
