import { Lock } from 'lucide-react'
import { roleReason, useRole } from '../auth/useRole.ts'
import { DeliveryLogCard } from './notifications/DeliveryLogCard.tsx'
import { EmailCard } from './notifications/EmailCard.tsx'
import { WebhooksCard } from './notifications/WebhooksCard.tsx'

/**
 * Alerts: notifications (spec 001 §2). Email and webhooks are their own resources under
 * /api/notifications and save on their own buttons (webhooks at once, email with its Save); the
 * page's unsaved-changes bar stays for the alert config alone. Destinations hold addresses and
 * keys: a viewer does not see them; an operator sees and tests them, an admin changes them.
 */
export function NotificationsTab() {
  if (!useRole().can('operator')) {
    return (
      <p className="m-3 flex items-center gap-1.5 rounded-md border border-gray-200 bg-gray-50 px-3 py-2 text-sm text-gray-700 sm:m-4 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-300">
        <Lock className="size-4 shrink-0" aria-hidden />
        Notification destinations: {roleReason('operator')}.
      </p>
    )
  }
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
