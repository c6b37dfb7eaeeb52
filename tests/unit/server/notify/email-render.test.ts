// The email renderer: subjects that say what and where, escaped HTML, durations, the row cap.
import { describe, expect, it } from 'vitest'
import { formatDuration } from '../../../../src/server/notify/email/format.ts'
import { EMAIL_MAX_ROWS, renderEmail } from '../../../../src/server/notify/email/render.ts'
import { batchOf, event, makeAlert, resolvedOf, START } from './email-fixture.ts'

describe('renderEmail', () => {
  it('names level, metric, value, resource and node in a single alert subject', () => {
    const mail = renderEmail(batchOf([event('fired', makeAlert())]))
    expect(mail.subject).toBe('[Pulse] CRITICAL: VM cpu at 95.0% on web-01 (pve1)')
    expect(mail.text).toContain('95.0% / 90%')
    expect(mail.html).toContain('<td>95.0% / 90%</td>')
  })

  it('marks an escalation and a resolution, with how long the alert lasted', () => {
    const warning = makeAlert({ level: 'warning' })
    expect(renderEmail(batchOf([event('escalated', makeAlert())])).subject).toBe(
      '[Pulse] ESCALATED to CRITICAL: VM cpu at 95.0% on web-01 (pve1)',
    )
    const resolved = renderEmail(batchOf([event('resolved', resolvedOf(warning, 12 * 60_000))]))
    expect(resolved.subject).toBe('[Pulse] RESOLVED: VM cpu on web-01 (pve1) after 12m')
    expect(resolved.text).toContain('RESOLVED  web-01 on pve1')
    expect(resolved.html).toContain('resolved after 12m')
  })

  it('does not repeat a resource that the message names already', () => {
    const offline = makeAlert({
      type: 'offline',
      resourceName: 'pve1',
      message: "Node 'pve1' is offline",
      value: 0,
      threshold: 0,
      metadata: { resourceType: 'Node' },
    })
    const mail = renderEmail(batchOf([event('fired', offline)]))
    expect(mail.subject).toBe("[Pulse] CRITICAL: Node 'pve1' is offline")
    expect(mail.html).toContain('<td></td>')
  })

  it('counts a group by level and names its node', () => {
    const events = [
      event('fired', makeAlert()),
      event('fired', makeAlert({ id: 'b', resourceName: 'db-01' })),
      event('fired', makeAlert({ id: 'c', level: 'warning', resourceName: 'mail' })),
    ]
    const mail = renderEmail(batchOf(events))
    expect(mail.subject).toBe('[Pulse] 3 alerts on pve1: 2 critical, 1 warning')
    for (const name of ['web-01', 'db-01', 'mail']) {
      expect(mail.text).toContain(name)
      expect(mail.html).toContain(`<td>${name}</td>`)
    }
    const spread = renderEmail(batchOf([events[0]!, event('fired', makeAlert({ node: 'pve2' }))]))
    expect(spread.subject).toBe('[Pulse] 2 alerts on 2 nodes: 2 critical')
  })

  it('puts the summary text in a summary message', () => {
    const events = [event('fired', makeAlert({ node: 'pve3' }))]
    const summary = {
      reason: 'storm' as const,
      text: '142 alerts on pve3: 120 powered-off, 22 cpu',
      count: 142,
    }
    const mail = renderEmail(batchOf(events, summary))
    expect(mail.subject).toBe('[Pulse] 142 alerts on pve3 (summary)')
    expect(mail.text).toContain(summary.text)
    expect(mail.html).toContain(`<p>${summary.text}</p>`)
  })

  it('escapes every alert value in the HTML body', () => {
    const alert = makeAlert({ resourceName: '<img src=x onerror=alert(1)>', message: 'a & "b"' })
    const mail = renderEmail(batchOf([event('fired', alert)]))
    expect(mail.html).not.toContain('<img')
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(mail.html).toContain('a &amp; &quot;b&quot;')
    expect(mail.text).toContain('<img src=x onerror=alert(1)>')
  })

  it('links to the alerts page when a public URL is set', () => {
    const mail = renderEmail(batchOf([event('fired', makeAlert())]), {
      publicUrl: 'https://pulse.example.test/',
    })
    expect(mail.text).toContain('Open Pulse: https://pulse.example.test/alerts')
    expect(mail.html).toContain('href="https://pulse.example.test/alerts"')
  })

  it('lists at most EMAIL_MAX_ROWS alerts and counts the rest', () => {
    const events = Array.from({ length: EMAIL_MAX_ROWS + 20 }, (_, i) =>
      event('fired', makeAlert({ id: `a${i}`, resourceName: `vm-${i}` }), START + i),
    )
    const mail = renderEmail(batchOf(events))
    expect(mail.subject).toBe(
      `[Pulse] ${EMAIL_MAX_ROWS + 20} alerts on pve1: ${EMAIL_MAX_ROWS + 20} critical`,
    )
    expect(mail.html.split('<tr>').length - 2).toBe(EMAIL_MAX_ROWS)
    expect(mail.text).toContain('... and 20 more alerts.')
  })

  it('formats durations as the reference does', () => {
    expect(formatDuration(45_000)).toBe('45s')
    expect(formatDuration(12 * 60_000)).toBe('12m')
    expect(formatDuration((3 * 60 + 5) * 60_000)).toBe('3h 5m')
    expect(formatDuration((2 * 24 + 4) * 3_600_000)).toBe('2d 4h')
  })
})
