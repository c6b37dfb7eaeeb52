// The binary metrics frame: what the server encodes is what the worker decodes; anything else is
// refused with a reason, never thrown.
import { describe, expect, it } from 'vitest'
import {
  createMetricChanges,
  decodeMetricsFrame,
  encodeMetricsFrame,
} from '../../../../src/shared/model/guest-metrics.ts'

function sample() {
  const changes = createMetricChanges()
  // Guest in slot 7: cpu and memory.used; slot 70000: uptime and every disk field.
  changes.slots.push(7, 70_000)
  changes.masks.push(0b1 | 0b1000000, 0b10 | 0b111000000000)
  changes.values.push(0.123456789, 2 ** 40 + 1, 86_400, 1, 50.5, 3)
  return changes
}

describe('metrics frame', () => {
  it('decodes exactly what was encoded, doubles and slots unchanged', () => {
    const result = decodeMetricsFrame(encodeMetricsFrame(1234567, sample()))
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.frame.seq).toBe(1234567)
    expect([...result.frame.slots]).toEqual([7, 70_000])
    expect([...result.frame.masks]).toEqual(sample().masks)
    expect([...result.frame.values]).toEqual(sample().values)
  })

  it('encodes an empty change list', () => {
    const result = decodeMetricsFrame(encodeMetricsFrame(0, createMetricChanges()))
    expect(result.ok && result.frame.slots.length).toBe(0)
  })

  it('refuses a short buffer, another magic, a wrong size and masks that disagree with the values', () => {
    expect(decodeMetricsFrame(new ArrayBuffer(8))).toEqual({
      ok: false,
      reason: 'metrics frame too short',
    })
    const good = encodeMetricsFrame(5, sample())
    const otherMagic = good.slice(0)
    new DataView(otherMagic).setUint32(0, 0xdeadbeef, true)
    expect(decodeMetricsFrame(otherMagic).ok).toBe(false)
    expect(decodeMetricsFrame(good.slice(0, good.byteLength - 8)).ok).toBe(false)
    const badMask = good.slice(0)
    // One more bit in the first mask than there are values.
    new DataView(badMask).setUint16(24 + 2 * 4, 0b11 | 0b1000000, true)
    expect(decodeMetricsFrame(badMask)).toEqual({
      ok: false,
      reason: 'metrics frame masks and values disagree',
    })
  })
})
