// Alert notifications link to the resource's page at the alert's time (issue 25 "Where"): the
// email through a real SMTP server (smtp-server) on 127.0.0.1, the webhooks through a real
// loopback receiver, with PULSE_PUBLIC_URL set.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createEmailChannel } from '../../../../src/server/notify/email/channel.ts'
import { createWebhookChannel } from '../../../../src/server/notify/webhook/channel.ts'
import { alertResourceLink } from '../../../../src/server/notify/resource-link.ts'
import { batchOf, event, makeAlert, smtpConfig, START } from './email-fixture.ts'
import { startSmtp, type TestSmtp } from './smtp-fixture.ts'
import { makeWebhook, startReceiver, type Receiver } from './webhook-receiver.ts'

const PUBLIC = 'https://pulse.example.test'
const GUEST_LINK = `${PUBLIC}/guests/lab-pve1-101?at=${START / 1000}`

let smtp: TestSmtp
let receiver: Receiver
beforeAll(async () => {
  smtp = await startSmtp()
  receiver = await startReceiver()
})
afterAll(async () => {
  await smtp.close()
  await receiver.close()
})
afterEach(() => {
  receiver.requests.length = 0
})

describe('the link to the resource page', () => {
  it('names the page of each kind of resource at the start of the alert', () => {
    const at = START / 1000
    const link = (overrides: Parameters<typeof makeAlert>[0]) =>
      alertResourceLink(makeAlert(overrides), `${PUBLIC}/`)
    expect(link({})).toBe(GUEST_LINK)
    expect(link({ metadata: { resourceType: 'Node' }, resourceId: 'lab-pve1' })).toBe(
      `${PUBLIC}/nodes/lab-pve1?at=${at}`,
    )
    expect(link({ metadata: { resourceType: 'Storage' }, resourceId: 'lab-pve1-local' })).toBe(
      `${PUBLIC}/storage/lab-pve1-local?at=${at}`,
    )
    expect(link({ metadata: { resourceType: 'PBS' }, resourceId: 'pbs-backup1' })).toBe(
      `${PUBLIC}/pbs/pbs-backup1?at=${at}`,
    )
    // A disk's page is its node's.
    expect(link({ metadata: { resourceType: 'Disk' }, resourceId: 'lab-pve1-/dev/sda' })).toBe(
      `${PUBLIC}/nodes/lab-pve1?at=${at}`,
    )
    expect(alertResourceLink(makeAlert(), undefined)).toBe('')
  })

  it('is in the email, in the text and as a link in the HTML', async () => {
    const channel = createEmailChannel({ publicUrl: PUBLIC })
    const config = smtpConfig(smtp.port)
    const sent = await channel.send(batchOf([event('fired', makeAlert())]), {
      kind: 'email',
      id: 'email',
      name: 'Email',
      config,
    })
    expect(sent).toMatchObject({ ok: true })
    const [mail] = await smtp.waitFor(1)
    expect(mail!.text).toContain(GUEST_LINK)
    expect(mail!.html).toContain(`href="${GUEST_LINK}"`)
  })

  it('is in the generic webhook payload and a service template variable', async () => {
    const channel = createWebhookChannel({ allowLoopback: true, publicUrl: PUBLIC })
    try {
      const batch = batchOf([event('fired', makeAlert())])
      const generic = makeWebhook({ url: `${receiver.base}/generic`, service: 'generic' })
      expect(await channel.deliver(batch, generic)).toMatchObject({ ok: true })
      const slack = makeWebhook({ url: `${receiver.base}/slack`, service: 'slack' })
      expect(await channel.deliver(batch, slack)).toMatchObject({ ok: true })
      const custom = makeWebhook({
        url: `${receiver.base}/custom`,
        service: 'generic',
        template: '{"link": {{ ResourceURL | json }}}',
      })
      expect(await channel.deliver(batch, custom)).toMatchObject({ ok: true })
      const [g, s, c] = receiver.requests
      const payload = JSON.parse(g!.body) as { alert: { resource_url: string } }
      expect(payload.alert.resource_url).toBe(GUEST_LINK)
      expect(s!.body).toContain(GUEST_LINK)
      expect(JSON.parse(c!.body)).toEqual({ link: GUEST_LINK })
    } finally {
      await channel.close()
    }
  })
})
