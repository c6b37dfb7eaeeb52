// Subnet rules of discovery: CIDR parsing, the /22 limit, 'auto' = loopback only, and the refusal
// of any range outside 127.0.0.0/8 that no administrator typed (before a single probe).
import os from 'node:os'
import { describe, expect, it } from 'vitest'
import { scanSubnet } from '../../../../src/server/discovery/scanner.ts'
import {
  assertScannable,
  hostAddresses,
  isLoopback,
  parseSubnet,
  resolveTarget,
} from '../../../../src/server/discovery/subnet.ts'

// Neither private nor public, and refused before any socket is opened anyway.
const NON_LOOPBACK = '0.0.0.0/30'

describe('parseSubnet', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1/32'],
    ['127.0.0.1/32', '127.0.0.1/32'],
    ['127.0.0.77/30', '127.0.0.76/30'],
    [' 127.1.2.3/22 ', '127.1.0.0/22'],
  ])('normalises %j to %s', (text, cidr) => {
    expect(parseSubnet(text).cidr).toBe(cidr)
  })

  it.each([
    ['127.0.0.0/21', 'subnet: /21 is too large: scan at most a /22 (1024 addresses).'],
    ['127.0.0.0/8', 'subnet: /8 is too large: scan at most a /22 (1024 addresses).'],
    ['127.0.0.256/32', 'subnet: must be "auto" or an IPv4 subnet in CIDR form, like 127.0.0.0/24.'],
    ['127.0.0.1/33', 'subnet: must be "auto" or an IPv4 subnet in CIDR form, like 127.0.0.0/24.'],
    [
      'pve.example.com/24',
      'subnet: must be "auto" or an IPv4 subnet in CIDR form, like 127.0.0.0/24.',
    ],
  ])('refuses %j', (text, message) => {
    expect(() => parseSubnet(text)).toThrow(
      expect.objectContaining({ code: 'FIELD_INVALID', message }),
    )
  })

  it('lists hosts without network and broadcast, except for /31 and /32', () => {
    expect(hostAddresses(parseSubnet('127.0.0.0/30'))).toEqual(['127.0.0.1', '127.0.0.2'])
    expect(hostAddresses(parseSubnet('127.0.0.0/31'))).toEqual(['127.0.0.0', '127.0.0.1'])
    expect(hostAddresses(parseSubnet('127.0.0.0/22'))).toHaveLength(1022)
  })
})

describe("'auto' and the network rule", () => {
  it("resolves 'auto' (and an empty value) to 127.0.0.1/32 and nothing else", () => {
    for (const text of ['auto', 'AUTO', '', ' ']) {
      const target = resolveTarget(text, true)
      expect(target.subnet.cidr).toBe('127.0.0.1/32')
      expect(target.explicit).toBe(false)
      expect(hostAddresses(target.subnet)).toEqual(['127.0.0.1'])
    }
  })

  it("never includes this machine's own network addresses in 'auto'", () => {
    const own = Object.values(os.networkInterfaces())
      .flat()
      .filter((a) => a !== undefined && a.family === 'IPv4' && !a.internal)
      .map((a) => a!.address)
    const auto = hostAddresses(resolveTarget('auto', true).subnet)
    for (const address of own) expect(auto).not.toContain(address)
  })

  it('refuses a range outside 127.0.0.0/8 that no administrator typed, before any probe', async () => {
    const target = { subnet: parseSubnet(NON_LOOPBACK), explicit: false }
    expect(isLoopback(target.subnet)).toBe(false)
    const probed: string[] = []
    await expect(
      scanSubnet(target, {
        probe: async (ip, port) => {
          probed.push(`${ip}:${port}`)
          return { kind: 'none' }
        },
      }),
    ).rejects.toMatchObject({
      code: 'FIELD_INVALID',
      message:
        'subnet: 0.0.0.0/30 is outside 127.0.0.0/8: only a subnet an administrator types is scanned.',
    })
    expect(probed).toEqual([])
    // Typed by an administrator it is allowed; loopback is always allowed.
    expect(() => assertScannable({ ...target, explicit: true })).not.toThrow()
    expect(() => assertScannable(resolveTarget('127.0.0.0/24', false))).not.toThrow()
  })
})
