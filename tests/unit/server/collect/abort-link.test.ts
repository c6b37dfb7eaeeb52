import { describe, expect, it } from 'vitest'
import { linkAbort } from '../../../../src/server/collect/abort-link.ts'

describe('linkAbort', () => {
  it('aborts the target with the source reason when the source aborts', () => {
    const source = new AbortController()
    const target = new AbortController()
    linkAbort(target, source.signal)
    expect(target.signal.aborted).toBe(false)
    const reason = new Error('cancelled')
    source.abort(reason)
    expect(target.signal.aborted).toBe(true)
    expect(target.signal.reason).toBe(reason)
  })

  it('aborts at once when the source has already aborted', () => {
    const source = new AbortController()
    const reason = new Error('gone')
    source.abort(reason)
    const target = new AbortController()
    linkAbort(target, source.signal)
    expect(target.signal.reason).toBe(reason)
  })

  it('leaves the target alone once unlinked, and with no source', () => {
    const source = new AbortController()
    const target = new AbortController()
    const unlink = linkAbort(target, source.signal)
    unlink()
    source.abort(new Error('late'))
    expect(target.signal.aborted).toBe(false)
    const alone = new AbortController()
    linkAbort(alone, undefined)()
    expect(alone.signal.aborted).toBe(false)
  })

  it('keeps the target own abort reason when it aborts first', () => {
    const source = new AbortController()
    const target = new AbortController()
    linkAbort(target, source.signal)
    const timeout = new Error('timeout')
    target.abort(timeout)
    source.abort(new Error('after'))
    expect(target.signal.reason).toBe(timeout)
  })
})
