// What the notifications spec points Pulse at: a real HTTP receiver and a real SMTP server, both on
// 127.0.0.1 with ephemeral ports, recording everything they get. The SMTP side reads a message
// just enough for the checks (headers, and the text with quoted-printable undone): no MIME parser
// package is installed, and nodemailer's output is regular.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface HookRequest {
  method: string
  path: string
  headers: http.IncomingHttpHeaders
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown
  body: string
  /** True once the receiver answered 200 (false while held, and for ever if never released). */
  answered: boolean
}

export interface HookReceiverOptions {
  /** Requests this returns true for are recorded but never answered (a peer hanging mid-call). */
  hold?: (request: HookRequest) => boolean
}

export interface HookReceiver {
  url: string
  requests: HookRequest[]
  close(): Promise<void>
}

export async function startHookReceiver(options: HookReceiverOptions = {}): Promise<HookReceiver> {
  const requests: HookRequest[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {
        json = undefined
      }
      const request: HookRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        json,
        body,
        answered: false,
      }
      requests.push(request)
      if (options.hold?.(request)) return
      request.answered = true
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end('{"ok":true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export interface Mail {
  /** Envelope recipients (RCPT TO). */
  rcpt: string[]
  subject: string
  headers: Record<string, string>
  /** The whole message with quoted-printable soft breaks and escapes undone (for "contains"). */
  decoded: string
}

export interface MailSink {
  port: number
  mails: Mail[]
  close(): Promise<void>
}

function headersOf(raw: string): Record<string, string> {
  const end = raw.indexOf('\r\n\r\n')
  const head = raw.slice(0, end < 0 ? raw.length : end).replace(/\r\n[ \t]+/g, ' ')
  const headers: Record<string, string> = {}
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  return headers
}

function undoQuotedPrintable(raw: string): string {
  const latin1 = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  return Buffer.from(latin1, 'latin1').toString('utf8')
}

/** A plain SMTP server: no TLS, no STARTTLS offered, no login needed. */
export async function startMailSink(): Promise<MailSink> {
  const mails: Mail[] = []
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const headers = headersOf(raw)
        mails.push({
          rcpt: session.envelope.rcptTo.map((r) => r.address),
          subject: headers.subject ?? '',
          headers,
          decoded: undoQuotedPrintable(raw),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.server.address() as AddressInfo
  return { port, mails, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
