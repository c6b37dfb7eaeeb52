import { describe, expect, it } from 'vitest'
import { addLastSeen, createPlainGuestsConverter } from '../../../../src/server/hub/plain-guests.ts'
import { makeCollected } from '../collected-fixture.ts'

function estate() {
  const collected = makeCollected(6, 2)
  const nodes = collected.nodes.map((n, i) => ({ ...n, lastSeen: 1_000 + i }))
  return { nodes, vms: collected.vms }
}

describe('addLastSeen', () => {
  it("gives each guest its node's lastSeen without touching the guest it was given", () => {
    const { nodes, vms } = estate()
    const out = addLastSeen(vms, nodes)
    expect(out).toHaveLength(vms.length)
    for (const [i, guest] of out.entries()) {
      expect(guest.lastSeen).toBe(guest.node === 'pve1' ? 1_000 : 1_001)
      expect({ ...guest, lastSeen: undefined }).toEqual({ ...vms[i], lastSeen: undefined })
      expect(vms[i]).not.toHaveProperty('lastSeen')
    }
  })

  it('matches the node by instance as well as by name', () => {
    const { nodes, vms } = estate()
    const other = nodes.map((n) => ({ ...n, instance: 'other', lastSeen: 5 }))
    const out = addLastSeen(vms, [...other, ...nodes])
    expect(out.every((g) => g.lastSeen === 1_000 || g.lastSeen === 1_001)).toBe(true)
  })

  it('leaves lastSeen out when the guest’s node is not listed', () => {
    const { vms } = estate()
    const out = addLastSeen(vms, [])
    expect(out.every((g) => !('lastSeen' in g))).toBe(true)
  })
})

describe('createPlainGuestsConverter', () => {
  it('returns the same list while guests and nodes keep their identity', () => {
    const { nodes, vms } = estate()
    const convert = createPlainGuestsConverter()
    const first = convert(vms, nodes)
    expect(convert(vms, nodes)).toBe(first)
    const later = nodes.map((n) => ({ ...n, lastSeen: 9_000 }))
    expect(convert(vms, later)).not.toBe(first)
    expect(convert(vms, later).every((g) => g.lastSeen === 9_000)).toBe(true)
  })
})
