// Validation of a saved alert configuration (PUT /api/alerts/config; spec 001 §5 ranges). Strict
// enough that a UI bug cannot save garbage: wrong types and out-of-range values are rejected with
// the dotted path of the first bad field; missing sections and fields are filled from the defaults
// (a partial but well-formed config is accepted); unknown keys are dropped.
import { z } from 'zod'
import {
  ALERT_METRICS,
  GUEST_METRICS,
  WEEKDAYS,
  type AlertConfig,
  type AlertMetric,
  type ThresholdPair,
} from '../../shared/model/alerts.ts'
import { parseGuestSearch } from '../../shared/search/index.ts'
import { DEFAULT_ALERT_CONFIG } from './config-defaults.ts'
import { backupOrder, backupOverride, backups } from './config-validate-backups.ts'
import { bool, int, num } from './config-schema-parts.ts'

const D = DEFAULT_ALERT_CONFIG

/**
 * The most search terms the enabled custom rules' filters may hold in all. Every term can be tested
 * against every guest when the rules change (and on the first poll after a start), so this bounds
 * that work: 100 rules of 3 filters of 2 terms each fit. 500 rules of 3 filters do not.
 */
export const MAX_RULE_TERMS = 600
const copy =
  <T>(value: T): (() => T) =>
  () =>
    structuredClone(value)

const text = (min: number, max: number) =>
  z
    .string({ error: 'must be a string' })
    .min(min, min === 1 ? 'must not be empty' : `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
const level = z.enum(['warning', 'critical'], { error: 'must be warning or critical' })

/** Trigger range per metric: percent, MB/s or °C; -1 and 0 disable the metric. */
function metricRange(metric: AlertMetric): number {
  if (metric === 'temperature') return 200
  if (metric === 'diskRead' || metric === 'diskWrite') return 10_000
  if (metric === 'networkIn' || metric === 'networkOut') return 10_000
  return 100
}

// The clear level is checked and filled after parsing, when hysteresisMargin is known.
const pairSchema = (metric: AlertMetric) => {
  const max = metricRange(metric)
  return z.object(
    { trigger: num(-1, max), clear: num(-1, max).optional() },
    { error: 'must be an object with trigger and clear' },
  )
}
type RawPair = { trigger: number; clear?: number | undefined }
const pairWithDefault = (metric: AlertMetric, fallback: ThresholdPair) =>
  pairSchema(metric).default(copy(fallback))

const guestDefaults = z
  .object({
    poweredOffSeverity: level.default(D.guestDefaults.poweredOffSeverity),
    ...Object.fromEntries(GUEST_METRICS.map((m) => [m, pairWithDefault(m, D.guestDefaults[m])])),
  } as { poweredOffSeverity: z.ZodDefault<typeof level> } & Record<
    (typeof GUEST_METRICS)[number],
    ReturnType<typeof pairWithDefault>
  >)
  .prefault({})

const nodeDefaults = z
  .object({
    poweredOffSeverity: level.default(D.nodeDefaults.poweredOffSeverity),
    cpu: pairWithDefault('cpu', D.nodeDefaults.cpu),
    memory: pairWithDefault('memory', D.nodeDefaults.memory),
    disk: pairWithDefault('disk', D.nodeDefaults.disk),
    temperature: pairWithDefault('temperature', D.nodeDefaults.temperature),
  })
  .prefault({})

const override = z.object(
  {
    backup: backupOverride.optional(),
    disabled: z.boolean({ error: 'must be true or false' }).optional(),
    disableConnectivity: z.boolean({ error: 'must be true or false' }).optional(),
    poweredOffSeverity: level.optional(),
    ...Object.fromEntries(ALERT_METRICS.map((m) => [m, pairSchema(m).optional()])),
  } as {
    backup: z.ZodOptional<typeof backupOverride>
    disabled: z.ZodOptional<z.ZodBoolean>
    disableConnectivity: z.ZodOptional<z.ZodBoolean>
    poweredOffSeverity: z.ZodOptional<typeof level>
  } & Record<AlertMetric, z.ZodOptional<ReturnType<typeof pairSchema>>>,
  { error: 'must be an object' },
)

const ruleFilter = z.object({
  type: z.enum(['metric', 'text'], { error: 'must be metric or text' }),
  field: text(0, 100).default(''),
  operator: text(0, 10).optional(),
  value: z.union([text(0, 500), num(-1e12, 1e12)], { error: 'must be a string or a number' }),
  rawText: text(1, 500),
})

const rule = z.object({
  id: text(1, 200),
  name: text(1, 200),
  description: text(0, 1000).default(''),
  enabled: bool(true),
  priority: int(-1_000_000, 1_000_000).default(0),
  filterConditions: z.object({
    logicalOperator: z.enum(['AND', 'OR'], { error: 'must be AND or OR' }).default('AND'),
    filters: z.array(ruleFilter, { error: 'must be a list' }).max(50, 'at most 50 filters'),
  }),
  thresholds: z
    .object(
      Object.fromEntries(GUEST_METRICS.map((m) => [m, pairSchema(m).optional()])) as Record<
        (typeof GUEST_METRICS)[number],
        z.ZodOptional<ReturnType<typeof pairSchema>>
      >,
    )
    .default({}),
  backup: backupOverride.optional(),
  notifications: z
    .object({
      email: z.object({ enabled: z.boolean({ error: 'must be true or false' }) }).optional(),
      webhook: z.object({ enabled: z.boolean({ error: 'must be true or false' }) }).optional(),
    })
    .default({}),
  createdAt: text(0, 64).optional(),
  updatedAt: text(0, 64).optional(),
})

const hhmm = z
  .string({ error: 'must be a string' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time as HH:MM')

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

const weekdays = z
  .object(
    Object.fromEntries(WEEKDAYS.map((d) => [d, bool(D.schedule.quietHours.days[d])])) as Record<
      (typeof WEEKDAYS)[number],
      ReturnType<typeof bool>
    >,
    { error: 'must be an object keyed by weekday' },
  )
  .prefault({})

const schedule = z
  .object({
    quietHours: z
      .object({
        enabled: bool(false),
        start: hhmm.default(D.schedule.quietHours.start),
        end: hhmm.default(D.schedule.quietHours.end),
        timezone: text(1, 100)
          .refine(isTimeZone, 'must be an IANA time zone')
          .default(D.schedule.quietHours.timezone),
        days: weekdays,
        suppress: z
          .object({ performance: bool(false), storage: bool(false), offline: bool(false) })
          .prefault({}),
      })
      .prefault({}),
    cooldown: int(0, 120)
      .refine((v) => v === 0 || v >= 5, 'must be 0 (off) or between 5 and 120')
      .default(D.schedule.cooldown),
    groupingWindow: int(60, 1800).default(D.schedule.groupingWindow),
    maxAlertsHour: int(1, 10).default(D.schedule.maxAlertsHour),
    escalation: z
      .object({
        enabled: bool(false),
        levels: z
          .array(
            z.object({
              after: int(5, 180),
              notify: z.enum(['email', 'webhook', 'all'], {
                error: 'must be email, webhook or all',
              }),
            }),
            { error: 'must be a list' },
          )
          .max(10, 'at most 10 levels')
          .default(copy(D.schedule.escalation.levels)),
      })
      .prefault({}),
    grouping: z
      .object({
        enabled: bool(true),
        window: int(60, 1800).default(D.schedule.grouping.window),
        byNode: bool(true),
        byGuest: bool(false),
      })
      .prefault({}),
    storm: z
      .object({
        enabled: bool(D.schedule.storm.enabled),
        threshold: int(2, 10000).default(D.schedule.storm.threshold),
      })
      .prefault({}),
  })
  .prefault({})

const delay = int(0, 300)
const classDelays = z
  .record(text(1, 50), delay, { error: 'must be an object of delays' })
  .optional()

const configSchema = z.object(
  {
    enabled: bool(true),
    guestDefaults,
    nodeDefaults,
    storageDefault: pairWithDefault('usage', D.storageDefault),
    minimumDelta: num(0, 100).default(D.minimumDelta),
    suppressionWindow: int(0, 1440).default(D.suppressionWindow),
    hysteresisMargin: num(0, 50).default(D.hysteresisMargin),
    timeThreshold: delay.default(D.timeThreshold),
    timeThresholds: z
      .object({
        guest: delay.default(D.timeThresholds.guest),
        node: delay.default(D.timeThresholds.node),
        storage: delay.default(D.timeThresholds.storage),
        pbs: delay.default(D.timeThresholds.pbs),
      })
      .prefault({}),
    metricTimeThresholds: z
      .object({ guest: classDelays, node: classDelays, storage: classDelays, pbs: classDelays })
      .default({}),
    overrides: z
      .record(text(1, 500), override, { error: 'must be an object keyed by resource id' })
      .default({}),
    customRules: z
      .array(rule, { error: 'must be a list' })
      .max(500, 'at most 500 rules')
      .default([]),
    schedule,
    aggregation: z
      .object({
        enabled: bool(false),
        window: int(1, 1440).default(D.aggregation.window),
        count: int(1, 1000).default(D.aggregation.count),
        similarity: num(0, 100).default(D.aggregation.similarity),
      })
      .prefault({}),
    flapping: z
      .object({
        enabled: bool(true),
        threshold: int(1, 100).default(D.flapping.threshold),
        window: int(1, 1440).default(D.flapping.window),
        suppression: int(1, 1440).default(D.flapping.suppression),
        minStability: num(0, 1).default(D.flapping.minStability),
      })
      .prefault({}),
    ioNormalization: z
      .object({
        enabled: bool(false),
        vmDiskMax: num(1, 100_000).default(D.ioNormalization.vmDiskMax),
        containerDiskMax: num(1, 100_000).default(D.ioNormalization.containerDiskMax),
        networkMax: num(1, 100_000).default(D.ioNormalization.networkMax),
      })
      .prefault({}),
    disableAllNodes: bool(false),
    disableAllGuests: bool(false),
    disableAllStorage: bool(false),
    disableAllPBS: bool(false),
    disableAllNodesOffline: bool(false),
    disableAllGuestsOffline: bool(false),
    disableAllPBSOffline: bool(false),
    backups,
    history: z
      .object({
        retentionDays: int(1, 3650).default(D.history.retentionDays),
        maxRows: int(1000, 100_000_000).default(D.history.maxRows),
      })
      .prefault({}),
  },
  { error: 'must be an object' },
)

/**
 * `message` is the problem alone ("must be a number"): whoever shows it puts `field` before it,
 * once.
 */
export type ParseAlertConfigResult =
  { ok: true; config: AlertConfig } | { ok: false; field: string; message: string }

/**
 * Validate and complete a config; on failure name the first bad field by its dotted path.
 * `stored`: a config read back from the database is not refused for the rules' size (a server
 * must not lose every alert setting at start because an older version saved more rules).
 */
export function parseAlertConfig(
  input: unknown,
  options: { stored?: boolean } = {},
): ParseAlertConfigResult {
  const parsed = configSchema.safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const field = issue.path.map(String).join('.') || 'config'
    return { ok: false, field, message: issue.message }
  }
  const config = parsed.data as unknown as AlertConfig
  const margin = config.hysteresisMargin
  // Every pair gets its clear level here: missing or <= 0 becomes trigger - margin (min 0), as in
  // the reference. So does a clear equal to its trigger (no hysteresis: a 0.1-point wobble would
  // clear and fire again): the reference's own configs and older exports may hold one, so it is
  // corrected rather than refused. A clear above its trigger is a mistake and is refused.
  const fix = (path: string, raw: RawPair | undefined): string | null => {
    if (!raw) return null
    const pair = raw as ThresholdPair
    if (
      raw.clear === undefined ||
      raw.clear <= 0 ||
      (raw.trigger > 0 && raw.clear === raw.trigger)
    ) {
      pair.clear = Math.max(0, raw.trigger - margin)
    } else if (raw.trigger > 0 && raw.clear > raw.trigger) {
      return `${path}.clear`
    }
    return null
  }
  const pairs: [string, RawPair | undefined][] = [['storageDefault', config.storageDefault]]
  for (const m of GUEST_METRICS) pairs.push([`guestDefaults.${m}`, config.guestDefaults[m]])
  for (const m of ['cpu', 'memory', 'disk', 'temperature'] as const) {
    pairs.push([`nodeDefaults.${m}`, config.nodeDefaults[m]])
  }
  for (const [id, entry] of Object.entries(config.overrides)) {
    for (const m of ALERT_METRICS) pairs.push([`overrides.${id}.${m}`, entry[m]])
  }
  config.customRules.forEach((r, i) => {
    for (const m of GUEST_METRICS) pairs.push([`customRules.${i}.thresholds.${m}`, r.thresholds[m]])
  })
  for (const [path, raw] of pairs) {
    const bad = fix(path, raw)
    if (bad) return { ok: false, field: bad, message: 'must not be above the trigger' }
  }
  const order = backupOrder(config)
  if (order) return { ok: false, field: order, message: 'must not be below the warning days' }
  const terms = options.stored ? 0 : countRuleTerms(config)
  if (terms > MAX_RULE_TERMS) {
    return {
      ok: false,
      field: 'customRules',
      message:
        `the enabled rules' filters hold ${terms} search terms, more than ${MAX_RULE_TERMS}: ` +
        'disable or delete rules, or use fewer filters and terms per rule',
    }
  }
  return { ok: true, config }
}

/** The search terms of every enabled rule's filters (a filter `a OR b` holds two). */
export function countRuleTerms(config: AlertConfig): number {
  let terms = 0
  for (const rule of config.customRules) {
    if (!rule.enabled) continue
    for (const filter of rule.filterConditions.filters) {
      terms += parseGuestSearch(filter.rawText).terms.length
    }
  }
  return terms
}
