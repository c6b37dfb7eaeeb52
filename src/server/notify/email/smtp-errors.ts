// nodemailer's transport errors as messages a person can act on (spec 001 §8: the UI shows
// "Failed to send test email" and this text), and whether another attempt could succeed.
import type { SendResult } from '../types.ts'

interface SmtpError {
  code?: string
  errno?: string | number
  message?: string
  response?: string
  responseCode?: number
  command?: string
}

const TLS_HINT =
  /certificate|self[- ]signed|SSL routines|wrong version number|tls|handshake|unable to verify/i

/** The server's reply without its status code prefix and trailing whitespace. */
function serverText(err: SmtpError): string {
  const text = (err.response ?? err.message ?? '').trim()
  return text.length > 300 ? `${text.slice(0, 300)}...` : text
}

/** Map a failed send to a clear, safe message. Never includes the password. */
export function describeSmtpError(
  raw: unknown,
  host: string,
  port: number,
): Extract<SendResult, { ok: false }> {
  const err = (raw ?? {}) as SmtpError
  const message = err.message ?? String(raw)
  const target = `${host}:${port}`
  const code = err.code ?? ''
  const errno = String(err.errno ?? '')

  if (code === 'EAUTH' || err.responseCode === 535 || err.responseCode === 534)
    return { ok: false, retryable: false, error: `SMTP authentication failed: ${serverText(err)}` }
  if (code === 'ECONNREFUSED' || errno === 'ECONNREFUSED' || /ECONNREFUSED/.test(message))
    return { ok: false, retryable: true, error: `Cannot connect to SMTP server ${target}` }
  if (code === 'EDNS' || /ENOTFOUND|EAI_AGAIN/.test(message))
    return { ok: false, retryable: true, error: `Cannot resolve SMTP server host ${host}` }
  if (code === 'ETIMEDOUT' || /timeout|timed out/i.test(message))
    return { ok: false, retryable: true, error: `Timed out talking to SMTP server ${target}` }
  if (code === 'ETLS' || (code !== 'EENVELOPE' && TLS_HINT.test(message))) {
    // A certificate or protocol mismatch is a setting to fix, not a passing fault.
    return {
      ok: false,
      retryable: false,
      error: `TLS error with SMTP server ${target}: ${message}`,
    }
  }
  if (code === 'ECONNRESET' || /ECONNRESET|EPIPE|socket hang up|closed/i.test(message))
    return { ok: false, retryable: true, error: `Connection to SMTP server ${target} was lost` }
  if (err.responseCode !== undefined) {
    // 4xx is temporary by SMTP's own definition; 5xx is permanent.
    const retryable = err.responseCode < 500
    const what = code === 'EENVELOPE' ? 'refused the recipients' : 'refused the message'
    return { ok: false, retryable, error: `SMTP server ${what}: ${serverText(err)}` }
  }
  if (code === 'EENVELOPE')
    return { ok: false, retryable: false, error: `Invalid recipients: ${message}` }
  return { ok: false, retryable: true, error: `SMTP error: ${message}` }
}
