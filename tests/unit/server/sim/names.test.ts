import { describe, expect, it } from 'vitest'
import { inventGuest } from '../../../../src/server/sim/names.ts'
import { createRng } from '../../../../src/server/sim/prng.ts'

describe('inventGuest', () => {
  it('never makes a Windows or Kubernetes guest a container; other roles mix', () => {
    const rng = createRng(12)
    const counters = new Map<string, number>()
    const guests = Array.from({ length: 3000 }, () => inventGuest(rng, counters, 0.6))
    const windows = guests.filter((g) => g.windows)
    expect(windows.length).toBeGreaterThan(0)
    expect(windows.every((g) => g.type === 'qemu')).toBe(true)
    const containers = guests.filter((g) => g.type === 'lxc')
    expect(containers.length).toBeGreaterThan(0)
    expect(containers.filter((g) => /^(win|k8s-)/.test(g.name))).toEqual([])
  })
})
