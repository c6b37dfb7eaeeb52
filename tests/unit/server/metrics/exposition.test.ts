// The exposition writer (metrics/exposition.ts): label escaping, absent values, HELP and TYPE once
// per family, and UTF-8 text split over many pooled chunks coming back byte for byte.
import { describe, expect, it } from 'vitest'
import { createChunkPool } from '../../../../src/server/metrics/chunk-pool.ts'
import {
  escapeLabelValue,
  Family,
  labelsOf,
  writeFamilies,
} from '../../../../src/server/metrics/exposition.ts'

const text = (parts: Buffer[]) => Buffer.concat(parts).toString('utf8')

describe('the exposition writer', () => {
  it('escapes backslash, double quote and newline in label values, and nothing else', () => {
    expect(escapeLabelValue('plain-name_1')).toBe('plain-name_1')
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd')
    expect(escapeLabelValue('tab\there, üñí')).toBe('tab\there, üñí')
    expect(
      labelsOf([
        ['level', 'warning'],
        ['type', 'say "hi"'],
      ]),
    ).toBe('{level="warning",type="say \\"hi\\""}')
    expect(labelsOf([])).toBe('')
  })

  it('writes HELP and TYPE once, leaves out non-finite values and empty families', () => {
    const up = new Family('x_up', 'gauge', 'Up.')
    up.add('{id="a"}', 1)
    up.add('{id="b"}', Number.NaN)
    up.add('{id="c"}', 0.1 + 0.2)
    const empty = new Family('x_none', 'counter', 'Never written.')
    empty.add('', Number.POSITIVE_INFINITY)
    const out: Buffer[] = []
    writeFamilies(out, [up, empty])
    expect(text(out)).toBe(
      '# HELP x_up Up.\n# TYPE x_up gauge\nx_up{id="a"} 1\nx_up{id="c"} 0.30000000000000004\n',
    )
  })

  it('keeps multi-byte names whole across chunk boundaries of pooled, reused chunks', () => {
    const pool = createChunkPool()
    const names = Array.from({ length: 6_000 }, (_, i) => `gäst-${i}-ünïcödé-😀`)
    const expected = names.map((name, i) => `x_info{name="${name}"} ${i}\n`).join('')
    for (let round = 0; round < 3; round++) {
      const lease = pool.lease()
      const family = new Family('x_info', 'gauge', 'Names.', lease)
      names.forEach((name, i) => family.add(`{name="${name}"}`, i))
      const out: Buffer[] = []
      family.writeTo(out)
      expect(out.length).toBeGreaterThan(3)
      expect(text(out)).toBe(`# HELP x_info Names.\n# TYPE x_info gauge\n${expected}`)
      lease.release()
    }
    expect(pool.pooled).toBeGreaterThan(0)
  })
})
