// Redaction of upstream text before it reaches an answer or a log line (issue 12 item 5).
import { describe, expect, it } from 'vitest'
import { cleanReason, redactCredentials } from '../../../../src/server/collect/pve-errors.ts'

describe('redactCredentials', () => {
  it.each([
    ['PVEAPIToken=root@pam!ci=0b5e-secret-uuid rejected', 'PVEAPIToken=[redacted] rejected'],
    ['PBSAPIToken root@pam!ci:0b5e-secret-uuid', 'PBSAPIToken=[redacted]'],
    ['cookie=PVEAuthCookie=PVE:root@pam:ABC::sig; x', 'cookie=PVEAuthCookie=[redacted]; x'],
    ['username=root%40pam&password=s3cr%21t', 'username=root%40pam&password=[redacted]'],
    ['{"password":"s3cr!t","user":"root"}', '{"password":"[redacted]","user":"root"}'],
    ['Authorization: Bearer abc def', 'Authorization: [redacted]'],
  ])('redacts credential shapes in %s', (text, expected) => {
    expect(redactCredentials(text)).toBe(expected)
  })

  it('redacts known secrets in every encoding they were sent in', () => {
    const secret = 'pa ss&wörd!'
    const text = `a ${secret} b ${encodeURIComponent(secret)} c ${new URLSearchParams({ s: secret }).toString().slice(2)}`
    expect(redactCredentials(text, [secret])).toBe('a [redacted] b [redacted] c [redacted]')
  })

  it('keeps ordinary reason phrases as they are', () => {
    expect(redactCredentials('permission check failed (/, Sys.Audit)')).toBe(
      'permission check failed (/, Sys.Audit)',
    )
  })
})

describe('cleanReason', () => {
  it('turns controls and bidi characters into spaces and keeps 200 characters', () => {
    expect(cleanReason('bad\u0000\r\nthing\u202Eevil', 'x')).toBe('bad thing evil')
    expect(cleanReason('y'.repeat(300), 'x')).toHaveLength(200)
    expect(cleanReason('\u0007', 'fallback')).toBe('fallback')
  })
})
