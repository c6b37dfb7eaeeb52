// createStateBuilder over hand-set slots: which sources hold their backups pending.
import { describe, expect, it } from 'vitest'
import { createCallStats } from '../../../../src/server/collect/call-stats.ts'
import {
  createStateBuilder,
  type MonitoredEndpoint,
} from '../../../../src/server/collect/collected-state.ts'
import { createSlot, type EndpointSlot } from '../../../../src/server/collect/endpoint-slot.ts'
import { createPveSlowMemory } from '../../../../src/server/collect/pve-slow.ts'

const FIGURES = { at: 1_000, cycles: 1, lastPollDuration: 0.1, pollingStartTime: 900 }

function pve(name: string, status: EndpointSlot['status']): EndpointSlot {
  const endpoint: MonitoredEndpoint = {
    id: name,
    name,
    type: 'pve',
    host: `https://${name}.invalid:8006`,
    auth: { kind: 'token', tokenId: 'u@pam!t', secret: 's' },
    verifySSL: true,
  }
  const slot = createSlot(endpoint)
  slot.status = status
  return slot
}

function withSlowResult(slot: EndpointSlot, backupsPending: boolean): EndpointSlot {
  slot.memory.slowResult = { ...createPveSlowMemory().result, backupsPending }
  return slot
}

describe('createStateBuilder: backups pending', () => {
  it('names each connected PVE source without a first read or with a listing not read yet', () => {
    const build = createStateBuilder(createCallStats())
    const state = build(
      [
        pve('zulu', 'connected'),
        withSlowResult(pve('alpha', 'connected'), true),
        withSlowResult(pve('bravo', 'connected'), false),
        // A source that is down is stale, not pending; one not polled yet is left out.
        pve('down', 'error'),
        pve('new', 'pending'),
      ],
      FIGURES,
    )
    expect(state.backupsPending).toEqual(['alpha', 'zulu'])
    expect(state.backupsCollected).toBe(false)
    const read = build([withSlowResult(pve('alpha', 'connected'), false)], FIGURES)
    expect(read.backupsPending).toEqual([])
    expect(read.backupsCollected).toBe(true)
  })

  it('never holds a source pending when the slow collectors are off', () => {
    const build = createStateBuilder(createCallStats(), false)
    expect(build([pve('alpha', 'connected')], FIGURES).backupsPending).toEqual([])
  })
})
