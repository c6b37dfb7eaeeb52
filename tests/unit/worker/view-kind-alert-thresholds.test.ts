// The alertThresholds view kind through the worker API: the config arrives by setAlertConfig, the
// open views recompute at once, and data changes reach them like any other view.
import { describe, expect, it } from 'vitest'
import type {
  AlertThresholdsViewModel,
  AlertThresholdsViewRequest,
  ThresholdResourceRow,
} from '../../../src/shared/views/alert-thresholds-types.ts'
import { createWorkerApi } from '../../../src/worker/worker-api.ts'
import { createStateStore } from '../../../src/worker/store.ts'
import { makeAlertConfig } from '../../fixtures/alerts/alert-config.ts'
import { makeGuest, makeNode } from '../shared/views/guest-fixtures.ts'
import { createFakeDeps } from './fake-socket.ts'

const REQUEST: AlertThresholdsViewRequest = {
  kind: 'alertThresholds',
  section: 'guests',
  search: '',
  window: { start: 0, count: 50 },
}

function setup() {
  const store = createStateStore()
  store.applyFull({ nodes: [makeNode('pve1')], vms: [makeGuest(101), makeGuest(102)] })
  const queue: Array<() => void> = []
  const api = createWorkerApi({
    socket: createFakeDeps().deps,
    store,
    schedule: (run) => queue.push(run),
  })
  const models: AlertThresholdsViewModel[] = []
  api.subscribe(REQUEST, (model) => models.push(model))
  return { api, models, store }
}

const guestRows = (model: AlertThresholdsViewModel | undefined) =>
  (model?.rows ?? []).filter((row): row is ThresholdResourceRow => row.kind === 'resource')

describe('alertThresholds view kind', () => {
  it('answers before any config with empty thresholds, then recomputes on setAlertConfig', () => {
    const { api, models } = setup()
    expect(models).toHaveLength(1)
    expect(models[0]!.configVersion).toBe(0)
    const config = makeAlertConfig({
      overrides: { 'lab-pve1-101': { cpu: { trigger: 95, clear: 90 } } },
    })
    api.setAlertConfig(config, 1)
    expect(models).toHaveLength(2)
    expect(models[1]!.configVersion).toBe(1)
    expect(
      guestRows(models[1]).map((row) => [row.id, row.thresholds.cpu, row.hasOverride]),
    ).toEqual([
      ['lab-pve1-101', 95, true],
      ['lab-pve1-102', 80, false],
    ])
  })

  it('ignores a config older than the one it holds', () => {
    const { api, models } = setup()
    api.setAlertConfig(makeAlertConfig(), 3)
    api.setAlertConfig(makeAlertConfig({ overrides: { x: { disabled: true } } }), 2)
    expect(models.at(-1)!.configVersion).toBe(3)
    expect(models).toHaveLength(2)
  })
})
