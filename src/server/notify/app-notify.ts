// buildApp's notifications (issue 15): the stored email settings and webhooks, their channels, and
// the service that plans and sends. Destinations are read, with their secrets, when the dispatcher
// plans and the sender sends; a test may pass destinations and channels of its own.
import type { DestinationKind } from '../../shared/model/notifications.ts'
import type { Db } from '../store/db.ts'
import { createEmailRepo } from '../store/email-repo.ts'
import type { SecretBox } from '../store/secret-box.ts'
import { createWebhookRepo } from '../store/webhook-repo.ts'
import { createEmailChannel } from './email/channel.ts'
import { createNotifyService, type NotifyServiceDeps } from './service.ts'
import type { Channel, ResolvedDestination } from './types.ts'
import { createWebhookChannel } from './webhook/channel.ts'

export interface AppNotifyDeps {
  db: Db
  box: SecretBox
  alerts: NotifyServiceDeps['alerts']
  now: () => number
  log: NotifyServiceDeps['log']
  publicUrl: string | null
  webhookAllowLoopback: boolean
  /** Test-only destinations and channels in place of the stored ones. */
  override?: {
    destinations: () => readonly ResolvedDestination[]
    channels: Record<DestinationKind, Channel>
  }
}

/** The notification service with the stored destinations' repositories and channels. */
export function createAppNotify(deps: AppNotifyDeps) {
  const { db, box, now } = deps
  const emailRepo = createEmailRepo(db, box)
  const webhookRepo = createWebhookRepo(db, box)
  const publicUrl = deps.publicUrl ?? undefined
  const emailChannel = createEmailChannel({ now, publicUrl })
  const webhookSafety = { allowLoopback: deps.webhookAllowLoopback }
  const webhookChannel = createWebhookChannel({ ...webhookSafety, publicUrl, now })
  const storedDestinations = (): ResolvedDestination[] => {
    const out: ResolvedDestination[] = []
    const email = emailRepo.getResolved()
    if (email.enabled) out.push({ kind: 'email', id: 'email', name: 'Email', config: email })
    for (const webhook of webhookRepo.listResolved()) {
      if (webhook.enabled)
        out.push({ kind: 'webhook', id: webhook.id, name: webhook.name, webhook })
    }
    return out
  }
  const notify = createNotifyService({
    db,
    alerts: deps.alerts,
    destinations: deps.override?.destinations ?? storedDestinations,
    channels: deps.override?.channels ?? { email: emailChannel, webhook: webhookChannel },
    now,
    log: deps.log,
  })
  return { notify, emailRepo, webhookRepo, emailChannel, webhookChannel, webhookSafety }
}
