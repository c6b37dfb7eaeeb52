// Demo mode, issue 26: on the demo's first start (no alert config ever saved) the alert config
// gets one custom rule, so a fresh demo shows "not backed up" alerts (off by default) for the
// production-tagged guests the simulator leaves out of every backup job. A config the user saved
// (even one without the rule) is never touched again.
import type { AlertRule } from '../shared/model/alerts.ts'
import type { App } from './app.ts'
import { createDefaultAlertConfig } from './alerts/config-defaults.ts'
import { createAlertsRepo } from './store/alerts-repo.ts'

/** The rule the demo starts with. */
export const DEMO_BACKUP_RULE: AlertRule = {
  id: 'demo-production-backups',
  name: 'Production guests must be in a backup job',
  description: 'Raises "not backed up" for guests tagged production that no enabled job covers.',
  enabled: true,
  priority: 100,
  filterConditions: {
    logicalOperator: 'AND',
    filters: [{ type: 'text', field: 'tags', value: 'production', rawText: 'tags:production' }],
  },
  thresholds: {},
  backup: { notBackedUp: true },
  notifications: {},
}

/** Seed the demo's alert config when none was ever saved; true when it did. */
export function seedDemoAlertConfig(app: App): boolean {
  if (createAlertsRepo(app.db).loadConfig() !== null) return false
  const config = createDefaultAlertConfig()
  config.customRules = [structuredClone(DEMO_BACKUP_RULE)]
  const saved = app.alerts.saveConfig(config)
  if (!saved.ok) app.http.log.error(`demo: the alert rule was not saved (${saved.field})`)
  return saved.ok
}
