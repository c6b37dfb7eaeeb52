// Server log format (issue 12 item 15): readable lines on a terminal, JSON (one object a line) for
// journald, Docker and log shippers, or whichever LOG_FORMAT asks for. Request lines are debug:
// an info log says what the server did, not every poll of the dashboard. URLs are logged with
// their query values redacted: setup tokens and OIDC codes travel there.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify'

export const LOG_FORMATS = ['json', 'pretty'] as const
export type LogFormat = (typeof LOG_FORMATS)[number]

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** A destination pino can write to (process.stdout, a test's array). */
export interface LogDestination {
  write(line: string): unknown
  isTTY?: boolean
}

/** The format to use: LOG_FORMAT when set, else readable on a terminal and JSON otherwise. */
export function chooseLogFormat(requested: LogFormat | null, isTTY: boolean): LogFormat {
  return requested ?? (isTTY ? 'pretty' : 'json')
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
}
const LEVEL_COLOURS: Record<number, string> = { 20: '36', 30: '32', 40: '33', 50: '31', 60: '35' }
/** pino's own fields and what the line shows anyway. */
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err'])

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

function showValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)
  return JSON.stringify(value) ?? String(value)
}

/**
 * One JSON log line as a readable one: `12:04:05.123 INFO  message key=value`, an error's stack
 * indented below. A line that is not JSON is passed through.
 */
export function formatLogLine(json: string, colour = false): string {
  let entry: Record<string, unknown>
  try {
    entry = JSON.parse(json) as Record<string, unknown>
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`
  }
  const level = typeof entry.level === 'number' ? entry.level : 30
  const date = new Date(typeof entry.time === 'number' ? entry.time : Date.now())
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`
  const name = (LEVEL_NAMES[level] ?? String(level)).padEnd(5)
  const shownLevel = colour ? `\u001b[${LEVEL_COLOURS[level] ?? '0'}m${name}\u001b[0m` : name
  const fields = Object.entries(entry)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${showValue(value)}`)
  const err = entry.err as { message?: unknown; stack?: unknown } | undefined
  if (err && typeof err.message === 'string') fields.push(`err=${showValue(err.message)}`)
  const head = [time, shownLevel, String(entry.msg ?? ''), ...fields].filter(Boolean).join(' ')
  const stack =
    err && typeof err.stack === 'string' && level >= 50
      ? `\n${err.stack.replace(/^/gm, '    ')}`
      : ''
  return `${head}${stack}\n`
}

/** A destination that turns pino's JSON lines into readable ones before writing them. */
export function prettyDestination(out: LogDestination): LogDestination {
  const colour = out.isTTY === true
  return { write: (line: string) => out.write(formatLogLine(line.trimEnd(), colour)) }
}

/** A URL with every query value replaced: tokens and codes must not reach the log. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?')
  if (at < 0) return url
  const names = url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=')[0]}=[redacted]`)
  return `${url.slice(0, at)}?${names.join('&')}`
}

/** Fastify logger options for a level, format and destination. */
export function loggerOptions(level: LogLevel, format: LogFormat, out: LogDestination) {
  return { level, stream: format === 'pretty' ? prettyDestination(out) : out }
}

/**
 * Fastify's request lines, toned down: nothing on arrival, one debug line per answer (method,
 * redacted URL, status, milliseconds); a request that failed stays at error. Not-found answers
 * are debug too: scanners would otherwise fill the info log.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    }
    if (error) reply.log.error({ ...line, err: error }, 'request failed')
    else reply.log.debug(line, 'request')
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug({ method: request.method, url: redactUrl(request.url) }, 'route not found')
  }
}
