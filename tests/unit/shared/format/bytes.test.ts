import { describe, expect, it } from 'vitest'
import { formatBytes, formatRate } from '../../../../src/shared/format/bytes.ts'

describe('formatBytes', () => {
  it('prints whole bytes below one kilobyte', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1023)).toBe('1023 B')
  })

  it('uses base 1024 with one decimal and drops a trailing .0', () => {
    expect(formatBytes(1024)).toBe('1 KB')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(1024 ** 2)).toBe('1 MB')
    expect(formatBytes(3.25 * 1024 ** 3)).toBe('3.3 GB')
    expect(formatBytes(2 * 1024 ** 4)).toBe('2 TB')
  })

  it('promotes a value that would round up to 1024 of a unit', () => {
    expect(formatBytes(1024 * 1024 - 1)).toBe('1 MB')
  })

  it('stops at petabytes', () => {
    expect(formatBytes(1024 ** 5)).toBe('1 PB')
    expect(formatBytes(2048 * 1024 ** 5)).toBe('2048 PB')
  })

  it('treats negative and non-finite input as zero', () => {
    expect(formatBytes(-5)).toBe('0 B')
    expect(formatBytes(Number.NaN)).toBe('0 B')
  })
})

describe('formatRate', () => {
  it('adds a per-second suffix', () => {
    expect(formatRate(0)).toBe('0 B/s')
    expect(formatRate(262144)).toBe('256 KB/s')
    expect(formatRate(10 * 1024 * 1024)).toBe('10 MB/s')
  })
})
