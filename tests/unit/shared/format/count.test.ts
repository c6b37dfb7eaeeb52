import { describe, expect, it } from 'vitest'
import { countText } from '../../../../src/shared/format/count.ts'
import { formatLocalDateTime } from '../../../../src/shared/format/date-time.ts'

describe('counted nouns', () => {
  it('says "1 guest", never "1 guests"', () => {
    expect(countText(1, 'guest')).toBe('1 guest')
    expect(countText(0, 'guest')).toBe('0 guests')
    expect(countText(1975, 'guest')).toBe('1,975 guests')
    expect(countText(2, 'entry', 'entries')).toBe('2 entries')
  })
})

describe('local date and time', () => {
  it('is 24-hour, with or without seconds', () => {
    const at = new Date(2026, 0, 2, 15, 4, 5).getTime()
    expect(formatLocalDateTime(at)).toBe('2026-01-02 15:04:05')
    expect(formatLocalDateTime(at, false)).toBe('2026-01-02 15:04')
  })
})
