// The email channel against a real SMTP server (smtp-server) on 127.0.0.1: what arrives for a
// fired, an escalated and a resolved alert, a group and a summary; STARTTLS with authentication,
// implicit TLS, and the clear errors (auth, certificate, refused connection) with whether a retry
// could help; the rate limit per minute.
import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createEmailChannel,
  maxAttempts,
  retryDelayMs,
} from '../../../../src/server/notify/email/channel.ts'
import type { EmailConfig } from '../../../../src/shared/model/notifications.ts'
import { batchOf, event, makeAlert, resolvedOf, smtpConfig } from './email-fixture.ts'
import { startSmtp, type TestSmtp } from './smtp-fixture.ts'

const servers: TestSmtp[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function smtp(options: Parameters<typeof startSmtp>[0] = {}) {
  const server = await startSmtp(options)
  servers.push(server)
  return server
}

const to = (config: EmailConfig) => ({
  kind: 'email' as const,
  id: 'email' as const,
  name: 'Email',
  config,
})

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = net.createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as net.AddressInfo).port
  await new Promise((resolve) => probe.close(resolve))
  return port
}

describe('email channel', () => {
  it('delivers a fired, an escalated and a resolved alert to every recipient', async () => {
    const server = await smtp()
    const channel = createEmailChannel()
    const config = smtpConfig(server.port)
    const warning = makeAlert({
      level: 'warning',
      message: 'VM cpu at 82.0%',
      value: 82,
      threshold: 80,
    })
    for (const b of [
      batchOf([event('fired', warning)]),
      batchOf([event('escalated', makeAlert())]),
      batchOf([event('resolved', resolvedOf(makeAlert(), 12 * 60_000))]),
    ]) {
      expect(await channel.send(b, to(config))).toMatchObject({ ok: true })
    }
    const [fired, escalated, resolved] = await server.waitFor(3)
    expect(fired!.subject).toBe('[Pulse] WARNING: VM cpu at 82.0% on web-01 (pve1)')
    expect(fired!.rcpt).toEqual(['ops@example.test', 'oncall@example.test'])
    expect(fired!.from).toBe('pulse@example.test')
    expect(fired!.headers['reply-to']).toBe('noc@example.test')
    expect(fired!.text).toContain('VM cpu at 82.0%  (82.0% / 80%)')
    expect(fired!.html).toContain('<td>web-01</td><td>pve1</td><td>VM cpu at 82.0%</td>')
    expect(escalated!.subject).toBe(
      '[Pulse] ESCALATED to CRITICAL: VM cpu at 95.0% on web-01 (pve1)',
    )
    expect(escalated!.text).toContain('95.0% / 90%')
    expect(resolved!.subject).toBe('[Pulse] RESOLVED: VM cpu on web-01 (pve1) after 12m')
    expect(resolved!.html).toContain('resolved after 12m')
  })

  it('sends a group as one message and a summary with its text', async () => {
    const server = await smtp()
    const channel = createEmailChannel()
    const config = smtpConfig(server.port, { to: [] })
    const group = [
      event('fired', makeAlert()),
      event('fired', makeAlert({ id: 'b', resourceName: 'db-01' })),
      event('fired', makeAlert({ id: 'c', level: 'warning', resourceName: 'mail' })),
    ]
    expect((await channel.send(batchOf(group), to(config))).ok).toBe(true)
    const text = '142 alerts on pve3: 120 powered-off, 22 cpu'
    const storm = batchOf([event('fired', makeAlert({ node: 'pve3' }))], {
      reason: 'storm',
      text,
      count: 142,
    })
    expect((await channel.send(storm, to(config))).ok).toBe(true)
    const [grouped, summary] = await server.waitFor(2)
    expect(grouped!.subject).toBe('[Pulse] 3 alerts on pve1: 2 critical, 1 warning')
    // No recipients: the sender gets it.
    expect(grouped!.rcpt).toEqual(['pulse@example.test'])
    expect(grouped!.html).toContain('<td>db-01</td>')
    expect(summary!.subject).toBe('[Pulse] 142 alerts on pve3 (summary)')
    expect(summary!.text).toContain(text)
  })

  it('sends over STARTTLS with authentication', async () => {
    const server = await smtp({ startTLS: true, auth: { user: 'pulse', pass: 's3cret' } })
    const channel = createEmailChannel({ tlsRejectUnauthorized: false })
    const config = smtpConfig(server.port, {
      startTLS: true,
      username: 'pulse',
      password: 's3cret',
    })
    expect(await channel.send(batchOf([event('fired', makeAlert())]), to(config))).toMatchObject({
      ok: true,
    })
    const [mail] = await server.waitFor(1)
    expect(mail).toMatchObject({ secure: true, user: 'pulse' })
  })

  it('sends over implicit TLS', async () => {
    const server = await smtp({ secure: true })
    const channel = createEmailChannel({ tlsRejectUnauthorized: false })
    const config = smtpConfig(server.port, { tls: true })
    expect((await channel.send(batchOf([event('fired', makeAlert())]), to(config))).ok).toBe(true)
    const [mail] = await server.waitFor(1)
    expect(mail!.secure).toBe(true)
  })

  it('refuses a certificate it cannot verify, and does not retry that', async () => {
    const server = await smtp({ startTLS: true })
    const result = await createEmailChannel().send(
      batchOf([event('fired', makeAlert())]),
      to(smtpConfig(server.port, { startTLS: true })),
    )
    expect(result).toMatchObject({ ok: false, retryable: false })
    expect(!result.ok && result.error).toMatch(/^TLS error with SMTP server 127\.0\.0\.1:\d+: /)
    expect(server.mails).toHaveLength(0)
  })

  it('fails clearly when STARTTLS is required but not offered', async () => {
    const server = await smtp()
    const result = await createEmailChannel().send(
      batchOf([event('fired', makeAlert())]),
      to(smtpConfig(server.port, { startTLS: true })),
    )
    expect(result).toMatchObject({ ok: false, retryable: false })
    expect(!result.ok && result.error).toMatch(/^TLS error with SMTP server/)
  })

  it('reports an authentication failure with the server text, not retryable', async () => {
    const server = await smtp({ startTLS: true, auth: { user: 'pulse', pass: 's3cret' } })
    const channel = createEmailChannel({ tlsRejectUnauthorized: false })
    const config = smtpConfig(server.port, { startTLS: true, username: 'pulse', password: 'wrong' })
    const result = await channel.send(batchOf([event('fired', makeAlert())]), to(config))
    expect(result).toEqual({
      ok: false,
      retryable: false,
      error: expect.stringMatching(
        /^SMTP authentication failed: .*Authentication credentials invalid/,
      ) as unknown,
    })
    expect(!result.ok && result.error).not.toContain('wrong')
  })

  it('reports a refused connection as retryable', async () => {
    const port = await closedPort()
    const result = await createEmailChannel().send(
      batchOf([event('fired', makeAlert())]),
      to(smtpConfig(port)),
    )
    expect(result).toEqual({
      ok: false,
      retryable: true,
      error: `Cannot connect to SMTP server 127.0.0.1:${port}`,
    })
  })

  it('reports a server that never greets as a retryable timeout', async () => {
    // A TCP listener that accepts and stays silent: the greeting timeout must end the attempt.
    const silent = net.createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as net.AddressInfo).port
    try {
      const result = await createEmailChannel({ timeoutMs: 200 }).send(
        batchOf([event('fired', makeAlert())]),
        to(smtpConfig(port)),
      )
      expect(result).toEqual({
        ok: false,
        retryable: true,
        error: `Timed out talking to SMTP server 127.0.0.1:${port}`,
      })
    } finally {
      silent.close()
    }
  })

  it('holds to the rate limit per minute and says so, retryable', async () => {
    const server = await smtp()
    const clock = { t: 1_000_000 }
    const channel = createEmailChannel({ now: () => clock.t })
    const config = smtpConfig(server.port, { rateLimit: 2 })
    const b = batchOf([event('fired', makeAlert())])
    expect((await channel.send(b, to(config))).ok).toBe(true)
    expect((await channel.send(b, to(config))).ok).toBe(true)
    expect(await channel.send(b, to(config))).toEqual({
      ok: false,
      retryable: true,
      deferred: true,
      error: 'rate limit of 2 emails per minute reached',
    })
    clock.t += 60_000
    expect((await channel.send(b, to(config))).ok).toBe(true)
    expect(server.mails).toHaveLength(3)
  })

  it('gives the outbox its attempts and delay', () => {
    const config = smtpConfig(25, { maxRetries: 2, retryDelay: 7 })
    expect(maxAttempts(config)).toBe(3)
    expect(retryDelayMs(config)).toBe(7000)
    expect(maxAttempts({ ...config, maxRetries: 0 })).toBe(1)
  })
})
