// Pure helpers of the alert history tab (spec 001 §2, §3, §9).
import { describe, expect, it } from 'vitest'
import {
  MAX_HISTORY_BUCKETS,
  bucketLabel,
  dayLabel,
  deriveHistoryStatus,
  deriveResourceType,
  formatAlertDuration,
  formatHistoryRow,
  groupHistoryByDay,
  planBuckets,
  planHistoryBuckets,
  severityLabel,
} from '../../../../src/shared/views/alert-history.ts'
import { HOUR, NOW, historyRow } from './alert-history-fixtures.ts'

const DAY = 24 * HOUR

describe('bucket plans', () => {
  it('gives 24 one-hour buckets for the last 24 hours', () => {
    const plan = planHistoryBuckets('24h', NOW)
    expect(plan).toEqual({ since: NOW - DAY, until: NOW, bucketMs: HOUR })
  })

  it('gives 6-hour buckets for 7 days, daily ones for 30 days and 72-hour ones over 90 days', () => {
    const week = planHistoryBuckets('7d', NOW)
    expect(week).toEqual({ since: NOW - 7 * DAY, until: NOW, bucketMs: 6 * HOUR })
    expect((week.until - week.since) / week.bucketMs).toBe(28)
    const month = planHistoryBuckets('30d', NOW)
    expect(month).toEqual({ since: NOW - 30 * DAY, until: NOW, bucketMs: DAY })
    const all = planHistoryBuckets('all', NOW)
    expect(all).toEqual({ since: NOW - 90 * DAY, until: NOW, bucketMs: 3 * DAY })
    expect((all.until - all.since) / all.bucketMs).toBe(30)
  })

  it('widens buckets that would make more than 30 bars', () => {
    expect(MAX_HISTORY_BUCKETS).toBe(30)
    const plan = planBuckets(60 * DAY, HOUR, NOW)
    expect(plan.bucketMs).toBe(2 * DAY)
    expect((plan.until - plan.since) / plan.bucketMs).toBe(30)
    // Never narrower than asked.
    expect(planBuckets(DAY, 6 * HOUR, NOW).bucketMs).toBe(6 * HOUR)
  })
})

describe('day grouping', () => {
  it('labels Today, Yesterday and older days in the given zone', () => {
    expect(dayLabel(NOW - HOUR, NOW, 'UTC')).toBe('Today')
    expect(dayLabel(NOW - DAY, NOW, 'UTC')).toBe('Yesterday')
    expect(dayLabel(NOW - 2 * DAY, NOW, 'UTC')).toBe('Nov 3')
  })

  it('splits at local midnight, not UTC midnight', () => {
    // 23:30 and 00:30 UTC on Nov 4-5 are 18:30 and 19:30 on Nov 4 in New York, and
    // 08:30 and 09:30 on Nov 5 in Tokyo.
    const late = Date.UTC(2025, 10, 4, 23, 30)
    const early = Date.UTC(2025, 10, 5, 0, 30)
    const rows = [early, late].map((ms, i) =>
      historyRow({ historyId: i, startTime: new Date(ms).toISOString() }),
    )
    const shape = (zone: string) =>
      groupHistoryByDay(rows, NOW, zone).map((item) =>
        item.kind === 'day' ? `${item.label}(${item.count})` : item.index,
      )
    expect(shape('UTC')).toEqual(['Today(1)', 0, 'Yesterday(1)', 1])
    expect(shape('America/New_York')).toEqual(['Yesterday(2)', 0, 1])
    expect(shape('Asia/Tokyo')).toEqual(['Today(2)', 0, 1])
    // Seen from 22:00 New York time on Nov 4, the same rows are today's.
    const evening = Date.UTC(2025, 10, 5, 3, 0)
    expect(
      groupHistoryByDay(rows, evening, 'America/New_York').map((item) =>
        item.kind === 'day' ? item.label : item.index,
      ),
    ).toEqual(['Today', 0, 1])
  })

  it('puts unreadable start times under their own header', () => {
    const items = groupHistoryByDay([historyRow({ startTime: 'garbage' })], NOW, 'UTC')
    expect(items[0]).toMatchObject({ kind: 'day', label: 'Unknown date', count: 1 })
  })
})

describe('derived fields', () => {
  it('derives the status: acknowledged wins (spec 001 §4), then ended rows are resolved', () => {
    expect(deriveHistoryStatus({ acknowledged: false })).toBe('active')
    expect(deriveHistoryStatus({ acknowledged: true })).toBe('acknowledged')
    expect(deriveHistoryStatus({ acknowledged: true, endTime: '2025-11-05T10:00:00Z' })).toBe(
      'acknowledged',
    )
    expect(deriveHistoryStatus({ acknowledged: false, endTime: '2025-11-05T10:00:00Z' })).toBe(
      'resolved',
    )
    expect(deriveHistoryStatus({ acknowledged: false, status: 'resolved' })).toBe('resolved')
  })

  it('says of an acknowledged row whether it has ended', () => {
    const row = historyRow({ acknowledged: true, endTime: '2025-11-05T10:00:00Z' })
    expect(formatHistoryRow(row, 'UTC').statusText).toBe('Acknowledged (resolved)')
    const { endTime: _ended, ...open } = row
    expect(formatHistoryRow(open, 'UTC').statusText).toBe('Acknowledged')
  })

  it('labels the peak that the severity badge shows (a critical peak beside a lower last value)', () => {
    // Critical starts at 90: the occurrence peaked at 93.1 and eased to 86.8 before it ended.
    const row = historyRow({
      level: 'critical',
      value: 86.8,
      peak: 93.1,
      message: 'VM cpu at 86.8%',
    })
    const shown = formatHistoryRow(row, 'UTC')
    expect(shown.severityText).toBe('Critical')
    expect(shown.message).toBe('CPU peak 93.1%, last 86.8%')
    const flat = formatHistoryRow(historyRow({ value: 91.3, peak: 91.3 }), 'UTC')
    expect(flat.message).toBe('CPU at 91.3%')
    const io = historyRow({ type: 'diskWrite', value: 120.5, peak: 120.5 })
    expect(formatHistoryRow(io, 'UTC').message).toBe('Disk write at 120.5 MB/s')
    const fs = historyRow({
      type: 'disk',
      value: 93.1,
      peak: 93.1,
      metadata: { resourceType: 'VM', mountpoint: '/var' },
    })
    expect(formatHistoryRow(fs, 'UTC').message).toBe('Disk (/var) at 93.1%')
    const state = historyRow({
      type: 'connectivity',
      value: 0,
      peak: 0,
      message: "Node 'pve3' is offline",
    })
    expect(formatHistoryRow(state, 'UTC').message).toBe("Node 'pve3' is offline")
  })

  it('writes a container as LXC, as the dashboard does', () => {
    expect(formatHistoryRow(historyRow({ resourceType: 'CT' }), 'UTC').resourceTypeText).toBe('LXC')
    expect(formatHistoryRow(historyRow(), 'UTC').resourceTypeText).toBe('VM')
  })

  it('derives the resource type from the row, its metadata, then its type or id', () => {
    const bare = { id: 'x', type: 'cpu' as const }
    expect(deriveResourceType({ ...bare, resourceType: 'CT' })).toBe('CT')
    expect(deriveResourceType({ ...bare, metadata: { resourceType: 'Container' } })).toBe('CT')
    expect(deriveResourceType({ ...bare, metadata: { resourceType: 'VM' } })).toBe('VM')
    expect(deriveResourceType({ ...bare, metadata: { resourceType: 'Node' } })).toBe('Node')
    expect(
      deriveResourceType({ ...bare, resourceType: 'Unknown', metadata: { resourceType: 'PBS' } }),
    ).toBe('PBS')
    expect(deriveResourceType({ id: 'node-offline-lab-pve3', type: 'connectivity' })).toBe('Node')
    expect(deriveResourceType({ id: 'pbs-offline-pbs-vault', type: 'offline' })).toBe('PBS')
    expect(deriveResourceType({ id: 'storage-offline-lab-pve2-tank', type: 'offline' })).toBe(
      'Storage',
    )
    expect(deriveResourceType({ id: 'lab-pve2-tank-usage', type: 'usage' })).toBe('Storage')
    expect(deriveResourceType(bare)).toBe('Unknown')
  })

  it('formats durations and severities', () => {
    expect(formatAlertDuration(45_000)).toBe('45s')
    expect(formatAlertDuration(12 * 60_000)).toBe('12m')
    expect(formatAlertDuration(3 * HOUR + 5 * 60_000)).toBe('3h 5m')
    expect(formatAlertDuration(2 * DAY + 4 * HOUR)).toBe('2d 4h')
    expect(formatAlertDuration(-1)).toBe('-')
    expect(severityLabel('critical')).toBe('Critical')
    expect(severityLabel('warning')).toBe('Warning')
  })

  it('formats a row for the table in the given zone', () => {
    const row = formatHistoryRow(
      historyRow({ acknowledged: true, startTime: '2025-11-05T09:15:07Z', level: 'critical' }),
      'Europe/Berlin',
    )
    expect(row).toMatchObject({
      timestampText: '10:15:07',
      resource: 'web',
      resourceType: 'VM',
      severityText: 'Critical',
      durationText: '5m',
      status: 'acknowledged',
      statusText: 'Acknowledged',
      node: 'pve1',
    })
    expect(bucketLabel(Date.UTC(2025, 10, 5, 9), HOUR, 'UTC')).toBe('09:00')
    expect(bucketLabel(Date.UTC(2025, 10, 5, 6), 6 * HOUR, 'UTC')).toBe('Nov 5 06:00')
    expect(bucketLabel(Date.UTC(2025, 10, 5), DAY, 'UTC')).toBe('Nov 5')
  })
})
