import { DeliveryLogCard } from './notifications/DeliveryLogCard.tsx'
import { EmailCard } from './notifications/EmailCard.tsx'
import { WebhooksCard } from './notifications/WebhooksCard.tsx'

/**
 * Alerts: notifications (spec 001 §2). Email and webhooks are their own resources under
 * /api/notifications and save on their own buttons (webhooks at once, email with its Save); the
 * page's unsaved-changes bar stays for the alert config alone.
 */
export function NotificationsTab() {
  return (
    <div className="flex flex-col gap-4 p-3 sm:p-4">
      <div className="grid gap-4 xl:grid-cols-2 xl:items-start">
        <EmailCard />
        <WebhooksCard />
      </div>
      <DeliveryLogCard />
    </div>
  )
}
