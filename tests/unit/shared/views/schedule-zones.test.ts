import { describe, expect, it } from 'vitest'
import {
  ZONE_REGIONS,
  zoneGroups,
  zoneOffset,
} from '../../../../src/shared/views/schedule-zones.ts'

const WINTER = new Date('2025-01-15T12:00:00Z')
const SUMMER = new Date('2025-07-15T12:00:00Z')

describe('quiet-hours time zones', () => {
  it('offers about 70 distinct, valid IANA zones including UTC', () => {
    const zones = ZONE_REGIONS.flatMap((group) => group.zones)
    expect(zones.length).toBeGreaterThanOrEqual(65)
    expect(zones.length).toBeLessThanOrEqual(80)
    expect(new Set(zones).size).toBe(zones.length)
    expect(zones).toContain('UTC')
    for (const zone of zones) expect(zoneOffset(zone, WINTER), zone).not.toBeNull()
  })

  it('computes the current offset, daylight saving and half hours included', () => {
    expect(zoneOffset('UTC', WINTER)).toBe('+00:00')
    expect(zoneOffset('Europe/Berlin', WINTER)).toBe('+01:00')
    expect(zoneOffset('Europe/Berlin', SUMMER)).toBe('+02:00')
    expect(zoneOffset('America/New_York', WINTER)).toBe('-05:00')
    expect(zoneOffset('Asia/Kolkata', WINTER)).toBe('+05:30')
    expect(zoneOffset('Asia/Kathmandu', WINTER)).toBe('+05:45')
    expect(zoneOffset('America/St_Johns', WINTER)).toBe('-03:30')
    expect(zoneOffset('Not/AZone', WINTER)).toBeNull()
  })

  it("puts the browser's zone first, then UTC, then the regions, each zone once", () => {
    const groups = zoneGroups(WINTER, 'Europe/Berlin', 'Europe/Berlin')
    expect(groups[0]).toEqual({
      region: 'Your time zone',
      options: [{ zone: 'Europe/Berlin', label: 'Europe/Berlin (UTC+01:00) - browser' }],
    })
    expect(groups[1]).toEqual({
      region: 'Universal',
      options: [{ zone: 'UTC', label: 'UTC (UTC+00:00)' }],
    })
    const all = groups.flatMap((group) => group.options.map((option) => option.zone))
    expect(new Set(all).size).toBe(all.length)
  })

  it('keeps a saved zone the list lacks, so the select can show it', () => {
    const groups = zoneGroups(WINTER, 'UTC', 'America/Regina')
    expect(groups[0]!.options.map((option) => option.zone)).toEqual(['UTC', 'America/Regina'])
    const unknown = zoneGroups(WINTER, 'UTC', 'Not/AZone')
    expect(unknown[0]!.options.map((option) => option.zone)).toEqual(['UTC'])
  })
})
