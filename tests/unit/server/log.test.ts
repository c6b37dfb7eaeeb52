// Issue 12 item 15: the log format choice, the readable line, and request lines at debug with no
// secrets. The app logs into an array through the same options main.ts builds.
import { afterEach, describe, expect, it } from 'vitest'
import {
  chooseLogFormat,
  formatLogLine,
  loggerOptions,
  redactUrl,
  type LogFormat,
  type LogLevel,
} from '../../../src/server/log.ts'
import { readConfig } from '../../../src/server/config.ts'
import { buildTestApp } from './helpers.ts'

let close: (() => Promise<void>) | null = null
afterEach(async () => {
  await close?.()
  close = null
})

/** An app logging through loggerOptions into `lines`. */
async function appLogging(level: LogLevel, format: LogFormat, isTTY = false) {
  const lines: string[] = []
  const out = { isTTY, write: (line: string) => void lines.push(line) }
  const ctx = await buildTestApp({}, { logger: loggerOptions(level, format, out) })
  close = ctx.close
  return { app: ctx.app, lines }
}

describe('log format choice', () => {
  it('is readable on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    expect(chooseLogFormat(null, true)).toBe('pretty')
    expect(chooseLogFormat(null, false)).toBe('json')
    expect(chooseLogFormat('json', true)).toBe('json')
    expect(chooseLogFormat('pretty', false)).toBe('pretty')
  })

  it('reads LOG_FORMAT and LOG_LEVEL, naming the variable on a bad value', () => {
    const read = (env: Record<string, string>) => readConfig(env, '/tmp', 'test').log
    expect(read({})).toEqual({ level: 'info', format: null })
    expect(read({ LOG_FORMAT: 'JSON', LOG_LEVEL: 'debug' })).toEqual({
      level: 'debug',
      format: 'json',
    })
    expect(() => read({ LOG_FORMAT: 'xml' })).toThrow(/^LOG_FORMAT must be one of json, pretty/)
    expect(() => read({ LOG_LEVEL: 'loud' })).toThrow(/^LOG_LEVEL must be one of/)
  })
})

describe('log lines', () => {
  it('writes JSON objects when the format is json', async () => {
    const { app, lines } = await appLogging('info', 'json')
    app.http.log.info({ node: 'pve1' }, 'poll finished')
    const entry = JSON.parse(lines.at(-1)!) as Record<string, unknown>
    expect(entry).toMatchObject({ level: 30, msg: 'poll finished', node: 'pve1' })
  })

  it('writes readable lines when the format is pretty', async () => {
    const { app, lines } = await appLogging('info', 'pretty')
    app.http.log.warn({ node: 'pve 1', attempt: 2 }, 'poll failed')
    expect(lines.at(-1)).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} WARN {2}poll failed node="pve 1" attempt=2\n$/,
    )
    expect(() => JSON.parse(lines.at(-1)!)).toThrow()
  })

  it('indents an error stack under a readable error line', () => {
    const err = { message: 'boom', stack: 'Error: boom\n    at x' }
    const line = formatLogLine(JSON.stringify({ level: 50, time: 0, msg: 'failed', err }))
    expect(line).toMatch(/ERROR failed err=boom\n {4}Error: boom\n/)
  })

  it('logs requests at debug only, one line each, with query values redacted', async () => {
    const info = await appLogging('info', 'json')
    await info.app.http.inject({ method: 'GET', url: '/api/health' })
    await info.app.http.inject({ method: 'GET', url: '/api/no-such-route' })
    expect(info.lines.filter((line) => line.includes('/api/'))).toEqual([])
    await close?.()
    close = null

    const debug = await appLogging('debug', 'json')
    await debug.app.http.inject({ method: 'GET', url: '/api/health' })
    await debug.app.http.inject({
      method: 'GET',
      url: '/api/oidc/callback?code=secret-code-123&state=secret-state',
    })
    const requests = debug.lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'request')
    expect(requests).toHaveLength(2)
    expect(requests[0]).toMatchObject({ level: 20, method: 'GET', url: '/api/health', status: 200 })
    expect(requests[1]!.url).toBe('/api/oidc/callback?code=[redacted]&state=[redacted]')
    expect(debug.lines.join('')).not.toMatch(/secret-(code|state)/)
  })

  it('redacts every query value and keeps a plain path', () => {
    expect(redactUrl('/api/state')).toBe('/api/state')
    expect(redactUrl('/api/setup-script?type=pve&setup_token=abc')).toBe(
      '/api/setup-script?type=[redacted]&setup_token=[redacted]',
    )
  })
})
