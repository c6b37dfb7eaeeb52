import { describe, expect, it } from 'vitest'
import { formatUptime, isShortUptime } from '../../../../src/shared/format/uptime.ts'
import { formatPercent, toPercent } from '../../../../src/shared/format/percent.ts'

describe('formatUptime', () => {
  it('shows days and hours from one day up', () => {
    expect(formatUptime(86_400)).toBe('1d 0h')
    expect(formatUptime(432_000 + 3 * 3600 + 59)).toBe('5d 3h')
  })

  it('shows hours and minutes from one hour up', () => {
    expect(formatUptime(3600)).toBe('1h 0m')
    expect(formatUptime(2 * 3600 + 15 * 60 + 30)).toBe('2h 15m')
  })

  it('shows minutes below one hour', () => {
    expect(formatUptime(0)).toBe('0m')
    expect(formatUptime(59)).toBe('0m')
    expect(formatUptime(3599)).toBe('59m')
  })

  it('treats negative and non-finite uptime as zero', () => {
    expect(formatUptime(-10)).toBe('0m')
    expect(formatUptime(Number.POSITIVE_INFINITY)).toBe('0m')
  })

  it('calls an uptime under an hour short', () => {
    expect(isShortUptime(3599)).toBe(true)
    expect(isShortUptime(3600)).toBe(false)
  })
})

describe('formatPercent', () => {
  it('rounds to the requested decimals and adds a percent sign', () => {
    expect(formatPercent(42.46)).toBe('42%')
    expect(formatPercent(42.46, 1)).toBe('42.5%')
  })

  it('prints a dash for a non-finite value', () => {
    expect(formatPercent(Number.NaN)).toBe('-')
  })

  it('turns a fraction into a percent', () => {
    expect(toPercent(0.25)).toBe(25)
    expect(toPercent(Number.NaN)).toBe(0)
  })
})
