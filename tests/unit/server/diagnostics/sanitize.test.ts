import { describe, expect, it } from 'vitest'
import { REDACTED, createSanitizer } from '../../../../src/server/diagnostics/sanitize.ts'

const known = {
  hosts: ['pve1.lab.example.org', 'backup.corp.lan'],
  nodes: ['pve1', 'pve10', 'mock-cluster', 'pbs-main'],
  guests: ['vm-web-1', 'db-primary'],
  tokens: ['pulse@pve!monitor'],
  secrets: ['9c1a7b2e-0000-4f6d-b3a1-77c0a1d2e3f4'],
}

describe('createSanitizer', () => {
  it('redacts IPv4 and IPv6 addresses, including inside URLs and with ports', () => {
    const s = createSanitizer({})
    const out = s.text('Cannot reach 192.168.1.20:8006, tried https://[fe80::1]:8006 and ::1')
    // IPv6 is found in a pass before the words, so it is numbered first.
    expect(out).toBe('Cannot reach ip-3:8006, tried https://[ip-1]:8006 and ip-2')
  })

  it('gives the same original the same placeholder everywhere', () => {
    const s = createSanitizer(known)
    const a = s.text('https://pve1.lab.example.org:8006 is pve1 of mock-cluster, 10.0.0.5')
    const b = s.text('10.0.0.5 pve1.lab.example.org PVE1 mock-cluster (pve1)')
    expect(a).toBe('https://host-1:8006 is node-1 of node-2, ip-1')
    expect(b).toBe('ip-1 host-1 node-1 node-2 (node-1)')
  })

  it('redacts every category: hosts, node names, guest names and token ids', () => {
    const s = createSanitizer(known)
    const out = s.text(
      'backup.corp.lan pbs-main vm-web-1 db-primary pulse@pve!monitor other@pam!ci pve10',
    )
    expect(out).toBe('host-1 node-1 guest-1 guest-2 token-1 token-2 node-2')
  })

  it('finds known names inside composite ids without touching unknown neighbours', () => {
    const s = createSanitizer(known)
    expect(s.text('mock-cluster-pve1-100')).toBe('node-1-node-2-100')
    expect(s.text('pve100')).toBe('pve100')
    expect(s.text('qemu/100 on pve1.')).toBe('qemu/100 on node-2.')
  })

  it('redacts the host of any URL, known or not', () => {
    const s = createSanitizer({})
    expect(s.text('see https://member3.internal:8006/api2/json')).toBe(
      'see https://host-1:8006/api2/json',
    )
  })

  it('leaves clock times, dates and fingerprints alone', () => {
    const s = createSanitizer({})
    const fp = Array.from({ length: 32 }, () => 'AB').join(':')
    const text = `2026-11-25T03:41:23.000Z ${fp} 12:30`
    expect(s.text(text)).toBe(text)
  })

  it('removes secret values and secret-named keys, keeps flags, and sanitizes keys', () => {
    const s = createSanitizer(known)
    const out = s.value({
      message: `token 9c1a7b2e-0000-4f6d-b3a1-77c0a1d2e3f4 failed`,
      tokenValue: 'anything',
      password: 'hunter22',
      hasPassword: true,
      byNode: { pve1: { guests: ['vm-web-1'] } },
    })
    expect(out).toEqual({
      message: `token ${REDACTED} failed`,
      tokenValue: REDACTED,
      password: REDACTED,
      hasPassword: true,
      byNode: { 'node-1': { guests: ['guest-1'] } },
    })
  })

  it('reports what it replaced', () => {
    const s = createSanitizer(known)
    s.text('pve1 10.1.2.3')
    expect([...s.placeholders()]).toEqual([
      ['pve1', 'node-1'],
      ['10.1.2.3', 'ip-1'],
    ])
  })
})
