import { describe, expect, it } from 'vitest'
import { evaluate } from '../../../../src/server/alerts/evaluate.ts'
import {
  Driver,
  instantConfig,
  kinds,
  makeGuest,
  makeNode,
  makeState,
  T0,
} from './engine-fixture.ts'

const hot = (vmid = 1, cpu = 0.9) => makeGuest(vmid, { cpu })

describe('delays', () => {
  it('fires once the condition has held for the class delay, with startTime = first exceedance', () => {
    const config = instantConfig()
    config.timeThresholds = { guest: 20, node: 0, storage: 0, pbs: 0 }
    const d = new Driver(config)
    const state = makeState({ vms: [hot()] })
    expect(d.poll(state)).toEqual([])
    expect(d.engine.pending.get('lab-pve1-1-cpu')).toEqual({ since: T0, value: 90 })
    expect(d.poll(state)).toEqual([])
    expect(kinds(d.poll(state))).toEqual(['fired:lab-pve1-1-cpu'])
    expect(d.active('lab-pve1-1-cpu')?.startTime).toBe(new Date(T0).toISOString())
  })

  it('cancels a pending condition that drops below the trigger', () => {
    const config = instantConfig({ timeThresholds: { guest: 20, node: 0, storage: 0, pbs: 0 } })
    const d = new Driver(config)
    d.poll(makeState({ vms: [hot()] }))
    d.poll(makeState({ vms: [hot(1, 0.5)] }))
    expect(d.engine.pending.size).toBe(0)
    d.poll(makeState({ vms: [hot()] }))
    expect(d.poll(makeState({ vms: [hot()] }))).toEqual([])
  })

  it('takes a per-metric delay over the class delay, and 0 fires at once', () => {
    const config = instantConfig({
      timeThresholds: { guest: 60, node: 0, storage: 0, pbs: 0 },
      metricTimeThresholds: { guest: { memory: 0, default: 30 } },
    })
    const d = new Driver(config)
    const guest = makeGuest(1, { cpu: 0.9, memory: { usage: 90, used: 9, total: 10 } })
    expect(kinds(d.poll(makeState({ vms: [guest] })))).toEqual(['fired:lab-pve1-1-memory'])
    d.poll(makeState({ vms: [guest] }))
    d.poll(makeState({ vms: [guest] }))
    expect(kinds(d.poll(makeState({ vms: [guest] })))).toEqual(['fired:lab-pve1-1-cpu'])
  })

  it('applies class delays to state kinds (node offline uses the node delay)', () => {
    const config = instantConfig({ timeThresholds: { guest: 0, node: 15, storage: 0, pbs: 0 } })
    const d = new Driver(config)
    const down = makeState({ nodes: [makeNode('pve1', { status: 'offline' })] })
    expect(d.poll(down)).toEqual([])
    d.poll(down)
    expect(kinds(d.poll(down))).toEqual(['fired:node-offline-lab-pve1'])
  })
})

describe('disabling', () => {
  it('treats trigger <= 0 as off and resolves an open alert as disabled', () => {
    const d = new Driver()
    const state = makeState({ vms: [hot()] })
    d.poll(state)
    const config = structuredClone(d.config)
    config.guestDefaults.cpu = { trigger: 0, clear: 0 }
    expect(kinds(d.save(state, config))).toEqual(['resolved:lab-pve1-1-cpu:disabled'])
  })

  it('removes every alert of a resource whose override is disabled', () => {
    const d = new Driver()
    const state = makeState({
      vms: [makeGuest(1, { cpu: 0.9, memory: { usage: 95, used: 1, total: 1 } })],
    })
    d.poll(state)
    const config = structuredClone(d.config)
    config.overrides['lab-pve1-1'] = { disabled: true }
    expect(kinds(d.save(state, config)).sort()).toEqual([
      'resolved:lab-pve1-1-cpu:disabled',
      'resolved:lab-pve1-1-memory:disabled',
    ])
    expect(d.poll(state)).toEqual([])
  })

  it('suppresses offline and powered-off with disableConnectivity and the disableAll*Offline flags', () => {
    const config = instantConfig()
    config.overrides['lab-pve1-1'] = { disableConnectivity: true }
    config.disableAllNodesOffline = true
    const d = new Driver(config)
    d.poll(
      makeState({
        nodes: [makeNode('pve1'), makeNode('pve2', { status: 'offline' })],
        vms: [makeGuest(1, { status: 'stopped' }), makeGuest(2, { status: 'stopped' })],
      }),
    )
    expect(d.ids()).toEqual(['guest-powered-off-lab-pve1-2'])
  })

  it('resolves a whole class with disableAll* and everything when the engine is disabled', () => {
    const d = new Driver()
    const state = makeState({ nodes: [makeNode('pve1', { cpu: 0.9 })], vms: [hot()] })
    d.poll(state)
    expect(kinds(d.save(state, { ...d.config, disableAllGuests: true }))).toEqual([
      'resolved:lab-pve1-1-cpu:disabled',
    ])
    expect(kinds(d.save(state, { ...d.config, enabled: false }))).toEqual([
      'resolved:lab-pve1-cpu:disabled',
    ])
  })
})

describe('truth rules', () => {
  it('(a) holds the alerts of a guest whose status is unknown or whose node is down, frozen and stale', () => {
    const d = new Driver()
    d.poll(makeState({ vms: [hot(1, 0.9)] }))
    d.poll(makeState({ vms: [makeGuest(1, { status: 'unknown', cpu: 0 })] }))
    expect(d.last).toEqual([])
    expect(d.active('lab-pve1-1-cpu')).toMatchObject({ stale: true, value: 90 })
    // The node stops answering: its guests' alerts are held and the node raises its own alert.
    const down = makeState({ nodes: [makeNode('pve1', { status: 'offline' })], vms: [hot(1, 0.1)] })
    expect(kinds(d.poll(down))).toEqual(['fired:node-offline-lab-pve1'])
    expect(d.active('lab-pve1-1-cpu')).toMatchObject({ stale: true, value: 90 })
    d.poll(makeState({ vms: [hot(1, 0.88)] }))
    expect(d.active('lab-pve1-1-cpu')?.stale).toBeUndefined()
    expect(d.active('lab-pve1-1-cpu')?.value).toBe(88)
  })

  it('(a) keeps the alerts of an absent resource while its instance is unhealthy; removes them once it answers', () => {
    const d = new Driver()
    d.poll(makeState({ vms: [hot()] }))
    const cpu = (list: string[]) => list.filter((k) => k.includes('lab-pve1-1-cpu'))
    d.poll(makeState({ vms: [], connectionHealth: { lab: false } }))
    expect(cpu(kinds(d.last))).toEqual([])
    expect(d.active('lab-pve1-1-cpu')?.stale).toBe(true)
    d.poll(makeState({ vms: [], connectionHealth: {} }))
    expect(d.active('lab-pve1-1-cpu')).toBeDefined()
    expect(cpu(kinds(d.poll(makeState({ vms: [] }))))).toEqual(['resolved:lab-pve1-1-cpu:removed'])
  })

  it('(b) gives a guest that is not running no metric alerts and no pending', () => {
    const config = instantConfig({ timeThresholds: { guest: 30, node: 0, storage: 0, pbs: 0 } })
    const d = new Driver(config)
    d.poll(makeState({ vms: [hot(1), hot(2)] }), T0)
    d.poll(makeState({ vms: [hot(1), hot(2)] }), T0 + 30_000)
    expect(d.ids()).toEqual(['lab-pve1-1-cpu', 'lab-pve1-2-cpu'])
    d.poll(
      makeState({
        vms: [
          makeGuest(1, { status: 'stopped', cpu: 0.9 }),
          makeGuest(2, { status: 'paused', cpu: 0.9 }),
        ],
      }),
    )
    expect(kinds(d.last)).toEqual([
      'resolved:lab-pve1-1-cpu:stopped',
      'resolved:lab-pve1-2-cpu:stopped',
    ])
    expect([...d.engine.pending.keys()]).toEqual(['guest-powered-off-lab-pve1-1'])
  })

  it('(c) a config save keeps unchanged alerts (id, startTime, ack) and resolves only what no longer meets the thresholds', () => {
    const d = new Driver()
    const state = makeState({ vms: [hot(1, 0.9), hot(2, 0.85)] })
    d.poll(state)
    d.engine = { ...d.engine, active: new Map(d.engine.active) }
    const acked = {
      ...d.active('lab-pve1-1-cpu')!,
      acknowledged: true,
      ackUser: 'ops',
      ackTime: 'x',
    }
    ;(d.engine.active as Map<string, typeof acked>).set(acked.id, acked)
    const before = d.engine
    const config = structuredClone(d.config)
    config.guestDefaults.cpu = { trigger: 88, clear: 86 }
    expect(kinds(d.save(state, config))).toEqual(['resolved:lab-pve1-2-cpu:resolved'])
    const kept = before.active.get('lab-pve1-1-cpu')!
    expect(d.active('lab-pve1-1-cpu')).toMatchObject({
      id: kept.id,
      startTime: kept.startTime,
      acknowledged: true,
      ackUser: 'ops',
      ackTime: 'x',
      threshold: 88,
    })
    // Saving the same values again changes nothing at all.
    const again = d.engine
    expect(d.save(state, structuredClone(config))).toEqual([])
    expect(d.engine).toBe(again)
  })

  it('(c) re-evaluating the same poll does not advance delays or flapping', () => {
    const config = instantConfig({ timeThresholds: { guest: 20, node: 0, storage: 0, pbs: 0 } })
    const d = new Driver(config)
    const state = makeState({ vms: [hot()] })
    d.poll(state)
    for (let i = 0; i < 5; i++) expect(d.save(state, structuredClone(config))).toEqual([])
    expect(d.engine.pending.get('lab-pve1-1-cpu')?.since).toBe(T0)
    d.poll(state)
    expect(d.ids()).toEqual([])
  })

  it('(d) keeps acknowledgement across polls and loses it only on resolution', () => {
    const d = new Driver()
    d.poll(makeState({ vms: [hot(1, 0.85)] }))
    const active = new Map(d.engine.active)
    active.set('lab-pve1-1-cpu', {
      ...active.get('lab-pve1-1-cpu')!,
      acknowledged: true,
      ackUser: 'ops',
      ackTime: 't',
    })
    d.engine = { ...d.engine, active }
    d.poll(makeState({ vms: [hot(1, 0.95)] }))
    expect(d.active('lab-pve1-1-cpu')).toMatchObject({
      acknowledged: true,
      ackUser: 'ops',
      level: 'critical',
    })
    d.poll(makeState({ vms: [hot(1, 0.1)] }))
    d.poll(makeState({ vms: [hot(1, 0.9)] }), d.time + 10 * 60_000)
    expect(d.active('lab-pve1-1-cpu')?.acknowledged).toBe(false)
  })

  it('(e) derives ids from identity and condition only', () => {
    const a = evaluate(makeState({ vms: [hot(1, 0.9)] }), instantConfig(), T0, new Driver().engine)
    const b = evaluate(
      makeState({ vms: [hot(1, 0.99)] }, T0 + 99_000),
      instantConfig(),
      T0 + 99_000,
      new Driver().engine,
    )
    expect([...a.next.active.keys()]).toEqual([...b.next.active.keys()])
  })
})

describe('flapping and re-fire suppression', () => {
  it('holds an alert that changes state too often as one flapping alert, then resolves it after the hold', () => {
    const config = instantConfig()
    config.flapping = { enabled: true, threshold: 3, window: 10, suppression: 5, minStability: 0.8 }
    config.suppressionWindow = 0
    const d = new Driver(config)
    const up = makeState({ vms: [hot(1, 0.9)] })
    const downState = makeState({ vms: [hot(1, 0.1)] })
    expect(kinds(d.poll(up))).toEqual(['fired:lab-pve1-1-cpu'])
    expect(kinds(d.poll(downState))).toEqual(['resolved:lab-pve1-1-cpu:resolved'])
    expect(kinds(d.poll(up))).toEqual(['fired:lab-pve1-1-cpu'])
    // The fourth change within the window: held instead of resolved.
    expect(d.poll(downState)).toEqual([])
    expect(d.active('lab-pve1-1-cpu')?.flapping).toBe(true)
    for (let i = 0; i < 5; i++) expect(d.poll(i % 2 ? downState : up)).toEqual([])
    expect(kinds(d.poll(downState, d.time + 5 * 60_000))).toEqual([
      'resolved:lab-pve1-1-cpu:resolved',
    ])
  })

  it('keeps a near-identical re-crossing soon after resolution pending until the window ends; a worse one fires', () => {
    const config = instantConfig({ minimumDelta: 2, suppressionWindow: 5 })
    const d = new Driver(config)
    d.poll(makeState({ vms: [hot(1, 0.85), hot(2, 0.85)] }))
    d.poll(makeState({ vms: [hot(1, 0.1), hot(2, 0.1)] }))
    const t = d.time
    expect(kinds(d.poll(makeState({ vms: [hot(1, 0.86), hot(2, 0.9)] })))).toEqual([
      'fired:lab-pve1-2-cpu',
    ])
    expect(d.engine.pending.has('lab-pve1-1-cpu')).toBe(true)
    expect(
      kinds(d.poll(makeState({ vms: [hot(1, 0.86), hot(2, 0.9)] }), t - 10_000 + 5 * 60_000)),
    ).toEqual(['fired:lab-pve1-1-cpu'])
    expect(d.active('lab-pve1-1-cpu')?.startTime).toBe(new Date(t).toISOString())
  })

  it('bounds recentlyResolved, newest first', () => {
    const d = new Driver()
    d.poll(makeState({ vms: [hot(1), hot(2)] }))
    d.poll(makeState({ vms: [hot(1, 0.1), hot(2)] }))
    d.poll(makeState({ vms: [hot(1, 0.1), hot(2, 0.1)] }))
    expect(d.engine.recentlyResolved.map((r) => r.id)).toEqual(['lab-pve1-2-cpu', 'lab-pve1-1-cpu'])
    d.poll(makeState({ vms: [] }), d.time + 2 * 60 * 60_000)
    expect(d.engine.recentlyResolved).toEqual([])
  })
})
