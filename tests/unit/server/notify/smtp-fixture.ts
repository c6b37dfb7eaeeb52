// A real SMTP server (smtp-server) on 127.0.0.1 for the email tests: plain, STARTTLS or implicit
// TLS with a self-signed certificate, optional authentication. Received messages are decoded just
// enough to read the subject, the recipients and both bodies (a tiny MIME reader: no parser
// package is installed, and nodemailer's output is regular).
import type { AddressInfo } from 'node:net'
import { generate } from 'selfsigned'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  /** Envelope recipients (RCPT TO). */
  rcpt: string[]
  /** Authenticated user, if any. */
  user: string | undefined
  /** Whether the session was encrypted (implicit TLS or STARTTLS). */
  secure: boolean
  headers: Record<string, string>
  subject: string
  text: string
  html: string
}

export interface SmtpOptions {
  /** Implicit TLS from the first byte. */
  secure?: boolean
  /** Offer STARTTLS (with the self-signed certificate). */
  startTLS?: boolean
  /** Require this login. */
  auth?: { user: string; pass: string }
}

export interface TestSmtp {
  port: number
  mails: ReceivedMail[]
  /** Resolves once `count` messages arrived. */
  waitFor(count: number): Promise<ReceivedMail[]>
  close(): Promise<void>
}

let certPromise: Promise<{ key: string; cert: string }> | undefined

/** One self-signed certificate for 127.0.0.1, shared by the file's servers. */
export function testCertificate(): Promise<{ key: string; cert: string }> {
  certPromise ??= generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
  }).then((pems) => ({ key: pems.private, cert: pems.cert }))
  return certPromise
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  return Buffer.from(bytes, 'latin1').toString('utf8')
}

function splitHeaders(raw: string): { headers: Record<string, string>; body: string } {
  const cut = raw.indexOf('\r\n\r\n')
  const head = raw.slice(0, cut).replace(/\r\n[ \t]+/g, ' ')
  const headers: Record<string, string> = {}
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { headers, body: raw.slice(cut + 4) }
}

function decodePart(headers: Record<string, string>, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase()
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body)
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8')
  return body
}

/** Subject, text and HTML of a nodemailer message (multipart/alternative or a single part). */
export function readMessage(
  raw: string,
): Pick<ReceivedMail, 'headers' | 'subject' | 'text' | 'html'> {
  const { headers, body } = splitHeaders(raw)
  const parts: Array<{ type: string; content: string }> = []
  const boundary = /boundary="?([^";]+)"?/.exec(headers['content-type'] ?? '')?.[1]
  if (boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break
      const part = splitHeaders(chunk.replace(/^\r\n/, ''))
      parts.push({
        type: part.headers['content-type'] ?? '',
        content: decodePart(part.headers, part.body.replace(/\r\n$/, '')),
      })
    }
  } else {
    parts.push({ type: headers['content-type'] ?? '', content: decodePart(headers, body) })
  }
  const find = (type: string) => parts.find((p) => p.type.startsWith(type))?.content ?? ''
  return {
    headers,
    subject: headers.subject ?? '',
    text: find('text/plain').replace(/\r\n/g, '\n'),
    html: find('text/html').replace(/\r\n/g, '\n'),
  }
}

/** Start a server on an ephemeral loopback port. */
export async function startSmtp(options: SmtpOptions = {}): Promise<TestSmtp> {
  const tlsNeeded = options.secure || options.startTLS
  const pems = tlsNeeded ? await testCertificate() : undefined
  const mails: ReceivedMail[] = []
  const waiters: Array<{ count: number; resolve: (m: ReceivedMail[]) => void }> = []
  const server = new SMTPServer({
    secure: options.secure ?? false,
    ...(pems ? { key: pems.key, cert: pems.cert } : {}),
    disabledCommands: options.startTLS ? [] : ['STARTTLS'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      const want = options.auth
      if (want && auth.username === want.user && auth.password === want.pass)
        return callback(null, { user: auth.username })
      const err = new Error('5.7.8 Authentication credentials invalid') as Error & {
        responseCode: number
      }
      err.responseCode = 535
      return callback(err)
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcpt: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          secure: session.secure,
          ...readMessage(raw),
        })
        for (const w of waiters.splice(0)) {
          if (mails.length >= w.count) w.resolve(mails.slice())
          else waiters.push(w)
        }
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.server.address() as AddressInfo).port
  return {
    port,
    mails,
    waitFor(count) {
      if (mails.length >= count) return Promise.resolve(mails.slice())
      return new Promise((resolve) => waiters.push({ count, resolve }))
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
