// The alert history's URLs (issue 25): a resource page asks only its resource's occurrences.
import { describe, expect, test } from 'vitest'
import { historyUrls } from '../../../src/worker/alert-history-fetch.ts'

const NOW = Date.UTC(2025, 0, 1, 12)
const BASE = { range: '30d', severity: 'all', search: '', bucket: null } as const

describe('historyUrls', () => {
  test('a resource id filters the list and the summary on the server', () => {
    const { list, summary } = historyUrls({ ...BASE, resourceId: 'pbs-main:store1' }, NOW)
    expect(new URL(list, 'http://x').searchParams.get('resourceId')).toBe('pbs-main:store1')
    expect(new URL(summary, 'http://x').searchParams.get('resourceId')).toBe('pbs-main:store1')
  })

  test('without one, no resource filter', () => {
    const { list } = historyUrls(BASE, NOW)
    expect(new URL(list, 'http://x').searchParams.has('resourceId')).toBe(false)
  })
})
