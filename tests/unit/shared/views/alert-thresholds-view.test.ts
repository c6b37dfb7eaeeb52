import { describe, expect, it } from 'vitest'
import type { PbsInstance } from '../../../../src/shared/model/backups.ts'
import type { Entity, Guest, PveNode } from '../../../../src/shared/model/state.ts'
import type { Storage } from '../../../../src/shared/model/storage.ts'
import type {
  AlertThresholdsViewRequest,
  ThresholdResourceRow,
  ThresholdSection,
} from '../../../../src/shared/views/alert-thresholds-types.ts'
import {
  createAlertThresholdsView,
  type AlertThresholdsViewInput,
} from '../../../../src/shared/views/alert-thresholds-view.ts'
import type { GuestGroupRow } from '../../../../src/shared/views/guest-view-types.ts'
import { makeAlertConfig } from '../../../fixtures/alerts/alert-config.ts'
import { makeEstate, makeGuest, makeNode } from './guest-fixtures.ts'

function makePbs(name: string): PbsInstance {
  return {
    id: `pbs-${name}`,
    name,
    host: `https://${name}:8007`,
    status: 'online',
    version: '3.3.2',
    cpu: 5,
    memory: 30,
    memoryUsed: 3,
    memoryTotal: 10,
    uptime: 100,
    datastores: [],
    connectionHealth: 'healthy',
    lastSeen: 0,
  }
}

function makeStorage(node: string, name: string): Storage {
  return {
    id: `lab-${node}-${name}`,
    name,
    node,
    instance: 'lab',
    type: 'dir',
    content: 'images',
    status: 'available',
    shared: false,
    enabled: true,
    active: true,
    total: 100,
    used: 40,
    free: 60,
    usage: 40,
  }
}

function input(patch: Partial<AlertThresholdsViewInput> = {}): AlertThresholdsViewInput {
  const nodes: PveNode[] = [makeNode('pve1'), makeNode('pve2', { status: 'offline', uptime: 0 })]
  const guests: Guest[] = [
    makeGuest(101, { name: 'web', node: 'pve1' }),
    makeGuest(100, { name: 'db', node: 'pve1', type: 'lxc' }),
    makeGuest(200, { name: 'mail', node: 'pve2' }),
  ]
  return {
    nodes,
    guests,
    pbs: [makePbs('vault')],
    storage: [makeStorage('pve1', 'local'), makeStorage('pve2', 'tank')],
    alerts: [],
    config: { config: makeAlertConfig(), version: 1 },
    ...patch,
  }
}

function request(
  section: ThresholdSection,
  patch: Partial<AlertThresholdsViewRequest> = {},
): AlertThresholdsViewRequest {
  return {
    kind: 'alertThresholds',
    section,
    search: '',
    window: { start: 0, count: 100 },
    ...patch,
  }
}

const resources = (rows: readonly { kind: string }[]) =>
  rows.filter((row): row is ThresholdResourceRow => row.kind === 'resource')

describe('alert thresholds view', () => {
  it('builds node rows with the node defaults and marks guest-only metrics not applicable', () => {
    const model = createAlertThresholdsView().compute(input(), request('nodes'))
    const rows = resources(model.rows)
    expect(rows.map((row) => row.id)).toEqual(['lab-pve1', 'lab-pve2'])
    expect(rows[0]).toMatchObject({
      type: 'node',
      typeLabel: 'Node',
      vmid: null,
      thresholds: { cpu: 80, memory: 85, disk: 90, temperature: 80 },
      hasOverride: false,
      alertCount: 0,
    })
    expect(rows[0]!.notApplicable).toEqual(
      expect.arrayContaining(['diskRead', 'diskWrite', 'networkIn', 'networkOut', 'usage']),
    )
    expect(rows[0]!.notApplicable).not.toContain('temperature')
  })

  it('gives PBS rows only cpu and memory, keyed pbs-<name>', () => {
    const pbs = { ...makePbs('vault'), id: 'vault' }
    const model = createAlertThresholdsView().compute(input({ pbs: [pbs] }), request('pbs'))
    const [row] = resources(model.rows)
    expect(row).toMatchObject({
      id: 'pbs-vault',
      typeLabel: 'PBS',
      thresholds: { cpu: 80, memory: 85 },
    })
    expect(row!.notApplicable).toEqual(expect.arrayContaining(['disk', 'temperature', 'usage']))
  })

  it('gives storage rows only usage, from the storage default', () => {
    const model = createAlertThresholdsView().compute(input(), request('storage'))
    const rows = resources(model.rows)
    expect(rows.map((row) => row.id)).toEqual(['lab-pve1-local', 'lab-pve2-tank'])
    expect(rows[0]!.thresholds).toEqual({ usage: 85 })
    expect(rows[0]!.notApplicable).toContain('cpu')
  })

  it('applies an override and counts it as one only when it differs or carries a flag', () => {
    const config = makeAlertConfig({
      overrides: {
        'lab-pve1-101': { memory: { trigger: 95, clear: 90 } },
        'lab-pve1-100': { cpu: { trigger: 80, clear: 75 } },
        'lab-pve2-200': { disableConnectivity: true },
        'lab-pve1-local': { disabled: true },
      },
    })
    const view = createAlertThresholdsView()
    const guests = resources(
      view.compute(input({ config: { config, version: 2 } }), request('guests')).rows,
    )
    const byId = new Map(guests.map((row) => [row.id, row]))
    expect(byId.get('lab-pve1-101')).toMatchObject({
      hasOverride: true,
      thresholds: { cpu: 80, memory: 95 },
      override: { memory: 95 },
      defaults: { memory: 85 },
    })
    // The same value as the default is not an override (spec 001 §4).
    expect(byId.get('lab-pve1-100')!.hasOverride).toBe(false)
    expect(byId.get('lab-pve2-200')).toMatchObject({ hasOverride: true, disableConnectivity: true })
    const storage = resources(
      createAlertThresholdsView().compute(
        input({ config: { config, version: 2 } }),
        request('storage'),
      ).rows,
    )
    expect(storage[0]).toMatchObject({ disabled: true, hasOverride: true })
  })

  it('shows a matching custom rule under an override and over the defaults (guests)', () => {
    const rule = {
      id: 'r1',
      name: 'databases',
      description: '',
      enabled: true,
      priority: 10,
      filterConditions: {
        logicalOperator: 'AND' as const,
        filters: [{ type: 'text' as const, field: 'name', value: 'db', rawText: 'name:db' }],
      },
      thresholds: { cpu: { trigger: 95, clear: 90 }, memory: { trigger: 70, clear: 65 } },
      notifications: {},
    }
    const config = makeAlertConfig({
      customRules: [rule],
      overrides: { 'lab-pve1-100': { memory: { trigger: 99, clear: 94 } } },
    })
    const rows = resources(
      createAlertThresholdsView().compute(
        input({ config: { config, version: 3 } }),
        request('guests'),
      ).rows,
    )
    const byId = new Map(rows.map((row) => [row.id, row]))
    // 'db' matches the rule: cpu from the rule, memory from its override.
    expect(byId.get('lab-pve1-100')!.thresholds).toMatchObject({ cpu: 95, memory: 99, disk: 90 })
    expect(byId.get('lab-pve1-101')!.thresholds).toMatchObject({ cpu: 80, memory: 85 })
    const disabled = makeAlertConfig({ customRules: [{ ...rule, enabled: false }] })
    const plain = resources(
      createAlertThresholdsView().compute(
        input({ config: { config: disabled, version: 4 } }),
        request('guests'),
      ).rows,
    )
    expect(plain.find((row) => row.id === 'lab-pve1-100')!.thresholds).toMatchObject({ cpu: 80 })
  })

  it('groups guests by node, online nodes first, vmid order inside a group', () => {
    const model = createAlertThresholdsView().compute(input(), request('guests'))
    expect(model.rows.map((row) => (row.kind === 'group' ? `#${row.label}` : row.name))).toEqual([
      '#pve1',
      'db',
      'web',
      '#pve2',
      'mail',
    ])
    expect((model.rows[0] as GuestGroupRow).guestCount).toBe(2)
    expect(model).toMatchObject({ total: 3, matched: 3, rowCount: 5, configVersion: 1 })
    const db = resources(model.rows).find((row) => row.name === 'db')!
    expect(db).toMatchObject({ typeLabel: 'CT', vmid: 100, node: 'pve1' })
    expect(db.notApplicable).toEqual(expect.arrayContaining(['usage', 'temperature']))
  })

  it('counts active alerts per resource', () => {
    const alerts: Entity[] = [
      { id: 'a', resourceId: 'lab-pve1-101' },
      { id: 'b', resourceId: 'lab-pve1-101' },
      { id: 'c', resourceId: 'lab-pve1' },
    ]
    const view = createAlertThresholdsView()
    const guest = resources(view.compute(input({ alerts }), request('guests')).rows).find(
      (row) => row.id === 'lab-pve1-101',
    )
    expect(guest!.alertCount).toBe(2)
    const node = resources(
      createAlertThresholdsView().compute(input({ alerts }), request('nodes')).rows,
    )
    expect(node[0]!.alertCount).toBe(1)
  })

  it('searches guests with the guest language and the other tables by words', () => {
    const view = createAlertThresholdsView()
    const web = view.compute(input(), request('guests', { search: 'web' }))
    expect(resources(web.rows).map((row) => row.name)).toEqual(['web'])
    expect(web).toMatchObject({ total: 3, matched: 1, rowCount: 2 })
    const byVmid = view.compute(input(), request('guests', { search: 'vmid:200' }))
    expect(resources(byVmid.rows).map((row) => row.name)).toEqual(['mail'])
    const byNode = createAlertThresholdsView().compute(
      input(),
      request('storage', { search: 'pve2' }),
    )
    expect(resources(byNode.rows).map((row) => row.id)).toEqual(['lab-pve2-tank'])
  })

  it('keeps only a type when the search is a type name', () => {
    const view = createAlertThresholdsView()
    const cts = view.compute(input(), request('guests', { search: 'CT' }))
    expect(resources(cts.rows).map((row) => row.name)).toEqual(['db'])
    const none = createAlertThresholdsView().compute(
      input(),
      request('nodes', { search: 'storage' }),
    )
    expect(none.rows).toEqual([])
    expect(none.total).toBe(2)
  })

  it('formats only the rows in the window of a large estate', () => {
    const { guests, nodes } = makeEstate(10_000, 10)
    const view = createAlertThresholdsView()
    const model = view.compute(
      input({ guests, nodes }),
      request('guests', { window: { start: 500, count: 40 } }),
    )
    expect(model.rowCount).toBe(10_010)
    expect(model.start).toBe(500)
    expect(model.rows).toHaveLength(40)
  })

  it('returns the identical result when nothing it reads changed, and a new one on a new config', () => {
    const view = createAlertThresholdsView()
    const data = input()
    const first = view.compute(data, request('guests'))
    expect(view.compute({ ...data }, request('guests'))).toBe(first)
    const next = view.compute(
      { ...data, config: { config: makeAlertConfig(), version: 2 } },
      request('guests'),
    )
    expect(next).not.toBe(first)
    expect(next.configVersion).toBe(2)
  })

  it('serves empty thresholds before any config arrived', () => {
    const model = createAlertThresholdsView().compute(
      input({ config: { config: null, version: 0 } }),
      request('nodes'),
    )
    expect(resources(model.rows)[0]).toMatchObject({ thresholds: {}, hasOverride: false })
  })
})

describe('alert thresholds view memoization', () => {
  it('keeps the node section when only guests changed', () => {
    const view = createAlertThresholdsView()
    const data = input()
    const first = view.compute(data, request('nodes'))
    const guests = [...data.guests, makeGuest(300, { name: 'new' })]
    expect(view.compute({ ...data, guests }, request('nodes'))).toBe(first)
  })
})
