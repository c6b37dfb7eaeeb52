import { describe, expect, it } from 'vitest'
import {
  clampThresholdInput,
  removeOverride,
  saveRowEdit,
  startRowEdit,
  toggleOverrideFlag,
} from '../../../../src/shared/views/alert-override-edit.ts'

const defaults = { cpu: 80, memory: 85, disk: 90 }

describe('threshold row edits (spec 001 §4)', () => {
  it('starts an edit from the defaults with the override over them', () => {
    expect(startRowEdit(defaults, { memory: 95 })).toEqual({ cpu: 80, memory: 95, disk: 90 })
  })

  it('stores only the values that differ, with clear = trigger - 5 (at least 0)', () => {
    const next = saveRowEdit({}, 'vm-1', { cpu: 80, memory: 95, disk: 3 }, defaults)
    expect(next).toEqual({
      'vm-1': { memory: { trigger: 95, clear: 90 }, disk: { trigger: 3, clear: 0 } },
    })
  })

  it('removes the override when nothing differs and no flag is set', () => {
    const overrides = { 'vm-1': { memory: { trigger: 95, clear: 90 } }, other: { disabled: true } }
    expect(saveRowEdit(overrides, 'vm-1', { ...defaults }, defaults)).toEqual({
      other: { disabled: true },
    })
  })

  it('keeps the flags of an override whose thresholds return to the defaults', () => {
    const overrides = { 'vm-1': { disableConnectivity: true, cpu: { trigger: 50, clear: 45 } } }
    expect(saveRowEdit(overrides, 'vm-1', { ...defaults }, defaults)).toEqual({
      'vm-1': { disableConnectivity: true },
    })
  })

  it('returns the same object when a save changes nothing', () => {
    const overrides = { 'vm-1': { memory: { trigger: 95, clear: 90 } } }
    expect(saveRowEdit(overrides, 'vm-1', { ...defaults, memory: 95 }, defaults)).toBe(overrides)
  })

  it('adds a flag as an override and deletes an override left with no thresholds and no flag', () => {
    const on = toggleOverrideFlag({}, 'st-1', 'disabled', true)
    expect(on).toEqual({ 'st-1': { disabled: true } })
    expect(toggleOverrideFlag(on, 'st-1', 'disabled', false)).toEqual({})
    const withThreshold = { 'n-1': { cpu: { trigger: 90, clear: 85 }, disableConnectivity: true } }
    expect(toggleOverrideFlag(withThreshold, 'n-1', 'disableConnectivity', false)).toEqual({
      'n-1': { cpu: { trigger: 90, clear: 85 } },
    })
  })

  it('removes an override entirely', () => {
    expect(removeOverride({ a: { disabled: true }, b: { disabled: true } }, 'a')).toEqual({
      b: { disabled: true },
    })
  })
})

describe('threshold inputs (spec 001 §5)', () => {
  it('takes integers only; anything else becomes 0', () => {
    expect(clampThresholdInput('85', 'cpu', 'table')).toBe(85)
    expect(clampThresholdInput('8.5', 'cpu', 'table')).toBe(0)
    expect(clampThresholdInput('abc', 'cpu', 'table')).toBe(0)
    expect(clampThresholdInput('', 'cpu', 'table')).toBe(0)
  })

  it('clamps to -1 and the metric maximum', () => {
    expect(clampThresholdInput('-5', 'memory', 'table')).toBe(-1)
    expect(clampThresholdInput('250', 'usage', 'table')).toBe(100)
    expect(clampThresholdInput('20000', 'diskRead', 'table')).toBe(10_000)
    expect(clampThresholdInput('190', 'temperature', 'table')).toBe(190)
    expect(clampThresholdInput('250', 'temperature', 'table')).toBe(200)
    expect(clampThresholdInput('190', 'temperature', 'defaults')).toBe(150)
  })
})
