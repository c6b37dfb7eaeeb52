import { describe, expect, it } from 'vitest'
import {
  getIoRateColour,
  getNodeTemperatureColour,
  getUptimeColour,
  getUsageColour,
} from '../../../../src/shared/format/thresholds.ts'

const MIB = 1024 * 1024

describe('getUsageColour', () => {
  it('uses 80/90 for cpu', () => {
    expect(getUsageColour('cpu', 79.9)).toBe('green')
    expect(getUsageColour('cpu', 80)).toBe('yellow')
    expect(getUsageColour('cpu', 90)).toBe('red')
  })

  it('uses 75/85 for memory', () => {
    expect(getUsageColour('memory', 74)).toBe('green')
    expect(getUsageColour('memory', 75)).toBe('yellow')
    expect(getUsageColour('memory', 85)).toBe('red')
  })

  it('uses 80/90 for disk and 75/90 for generic usage', () => {
    expect(getUsageColour('disk', 80)).toBe('yellow')
    expect(getUsageColour('disk', 89.9)).toBe('yellow')
    expect(getUsageColour('disk', 90)).toBe('red')
    expect(getUsageColour('generic', 75)).toBe('yellow')
    expect(getUsageColour('generic', 89)).toBe('yellow')
  })

  it('is grey when usage is unavailable', () => {
    expect(getUsageColour('disk', -1)).toBe('grey')
  })
})

describe('getIoRateColour', () => {
  it('is grey under 1 MiB/s, green under 10, yellow under 50, red above', () => {
    expect(getIoRateColour(MIB - 1)).toBe('grey')
    expect(getIoRateColour(MIB)).toBe('green')
    expect(getIoRateColour(10 * MIB - 1)).toBe('green')
    expect(getIoRateColour(10 * MIB)).toBe('yellow')
    expect(getIoRateColour(50 * MIB - 1)).toBe('yellow')
    expect(getIoRateColour(50 * MIB)).toBe('red')
  })
})

describe('other colours', () => {
  it('shows an uptime under an hour orange', () => {
    expect(getUptimeColour(3599)).toBe('orange')
    expect(getUptimeColour(3600)).toBeNull()
  })

  it('colours node temperature green below 70, yellow to 79, red from 80', () => {
    expect(getNodeTemperatureColour(69)).toBe('green')
    expect(getNodeTemperatureColour(70)).toBe('yellow')
    expect(getNodeTemperatureColour(80)).toBe('red')
  })
})
