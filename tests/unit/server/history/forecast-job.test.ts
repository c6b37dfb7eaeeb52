// The forecast job and its place on the published state: every storage (a shared one once per
// instance) and PBS datastore read from its month RRD, the forecast attached as `forecast` on
// Storage and PbsDatastore, unchanged objects kept (the live diff skips them). Proxmox is a real
// HTTPS stub on 127.0.0.1 (each test scripts its answers;
// history-sim.test.ts runs against the simulator).
import { describe, expect, it } from 'vitest'
import { createEmptyState, type State } from '../../../../src/shared/model/state.ts'
import type { PbsInstance } from '../../../../src/shared/model/backups.ts'
import {
  createEmptyRecentStore,
  createHistoryParts,
} from '../../../../src/server/history/history-parts.ts'
import { FORECAST_JOB } from '../../../../src/server/history/forecast-job.ts'
import { makeStorage, monthRows, TB, useRrdStub } from './history-fixture.ts'

const NOW_MS = 1_785_000_000_000
const NOW_S = NOW_MS / 1000
let clock = NOW_MS
/** Reads of the PBS datastore answer 500 while set. */
let pbsFails = false

/** `used` rising 10 GB a day to 605 GB now (full in 39 days); flat on the `local` storages. */
const rrd = useRrdStub((req) =>
  pbsFails && req.path.includes('/admin/datastore/')
    ? { status: 500, reason: 'datastore busy' }
    : {
        body: {
          data: monthRows(NOW_S, (day) =>
            req.path.includes('/local/') ? 4e11 : 605e9 + day * 10e9,
          ),
        },
      },
)

const PBS: PbsInstance = {
  id: 'pbs-backup1',
  name: 'backup1',
  host: 'https://127.0.0.1:8007',
  status: 'online',
  version: '3.2',
  cpu: 1,
  memory: 10,
  memoryUsed: 1,
  memoryTotal: 10,
  uptime: 1,
  datastores: [
    {
      name: 'main',
      total: TB,
      used: 605e9,
      free: 0,
      usage: 60.5,
      status: 'available',
      namespaces: [],
    },
  ],
  connectionHealth: 'healthy',
  lastSeen: NOW_MS,
}

function setup() {
  const state: State = {
    ...createEmptyState(NOW_MS, 'test'),
    storage: [
      makeStorage('pve1', 'shared-nfs', true),
      makeStorage('pve2', 'shared-nfs', true),
      makeStorage('pve1', 'local'),
    ],
    pbs: [PBS],
  }
  const parts = createHistoryParts({
    state: () => state,
    historyClient: (name) =>
      name === 'lab' || name === 'backup1'
        ? { client: rrd().client, type: name === 'lab' ? 'pve' : 'pbs', status: 'connected' }
        : undefined,
    recent: createEmptyRecentStore(),
    now: () => clock,
  })
  return { state, parts }
}

describe('forecast job', () => {
  it('reads each storage once (a shared one once) and each datastore, and forecasts the rising ones', async () => {
    const { state, parts } = setup()
    // One read per endpoint per tick: the two lab storages take two ticks, the PBS one.
    await parts.forecasts.tick()
    await parts.forecasts.tick()
    await parts.forecasts.tick()
    const paths = rrd()
      .stub.requests.map((r) => r.path.split('?')[0])
      .sort()
    expect(paths).toEqual([
      '/api2/json/admin/datastore/main/rrd',
      '/api2/json/admin/datastore/main/rrd',
      '/api2/json/nodes/pve1/storage/local/rrddata',
      '/api2/json/nodes/pve1/storage/local/rrddata',
      '/api2/json/nodes/pve1/storage/shared-nfs/rrddata',
      '/api2/json/nodes/pve1/storage/shared-nfs/rrddata',
    ])
    expect(rrd().stub.requests.every((r) => r.path.includes('timeframe=month'))).toBe(true)
    const next = { ...state }
    parts.decorate(next)
    const [nfs1, nfs2, local] = next.storage
    expect(nfs1!.forecast?.fullInDays).toBe(39)
    // The shared storage's forecast is on every node's row; flat local storage has none.
    expect(nfs2!.forecast).toBe(nfs1!.forecast)
    expect(local).toBe(state.storage[2])
    expect(local!.forecast).toBeUndefined()
    expect(next.pbs[0]!.datastores[0]!.forecast?.fullInDays).toBe(39)
    // Nothing is read again within the refresh time.
    await parts.forecasts.tick()
    expect(rrd().stub.requests).toHaveLength(6)
  })

  it('keeps the decorated objects when nothing changed', async () => {
    const { state, parts } = setup()
    for (let i = 0; i < 3; i++) await parts.forecasts.tick()
    const a = { ...state }
    parts.decorate(a)
    const b = { ...state }
    parts.decorate(b)
    expect(b.storage).toBe(a.storage)
    expect(b.pbs).toBe(a.pbs)
    // A republish of the decorated state keeps it as it is.
    const c = { ...a }
    parts.decorate(c)
    expect(c.storage[0]).toBe(a.storage[0])
    expect(c.pbs[0]).toBe(a.pbs[0])
  })

  it('tries a failed read again after a few minutes, not after the whole refresh time', async () => {
    clock = NOW_MS
    pbsFails = true
    const { state, parts } = setup()
    const datastoreReads = () =>
      rrd().stub.requests.filter((r) => r.path.includes('/admin/datastore/')).length
    try {
      for (let i = 0; i < 3; i++) await parts.forecasts.tick()
      const failed = datastoreReads()
      expect(failed).toBeGreaterThan(0)
      pbsFails = false
      clock = NOW_MS + FORECAST_JOB.retryMs - 1_000
      await parts.forecasts.tick()
      expect(datastoreReads()).toBe(failed)
      clock = NOW_MS + FORECAST_JOB.retryMs + 1_000
      await parts.forecasts.tick()
      expect(datastoreReads()).toBe(failed + 2)
      const next = { ...state }
      parts.decorate(next)
      expect(next.pbs[0]!.datastores[0]!.forecast?.fullInDays).toBe(39)
    } finally {
      pbsFails = false
      clock = NOW_MS
    }
  })
})
