import { History, Loader2, Mail, RefreshCw, Webhook } from 'lucide-react'
import { useState } from 'react'
import type { DeliveryRecord } from '../../../shared/model/notifications.ts'
import { BUTTON } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { EmptyState } from '../../components/EmptyState.tsx'
import { ToggleGroup } from '../../components/ToggleGroup.tsx'
import { useMediaQuery } from '../../hooks/useMediaQuery.ts'
import {
  DELIVERY_STATUS_CLASS,
  DELIVERY_STATUS_LABEL,
  EVENT_KIND_LABEL,
  STATUS_FILTERS,
  attemptsText,
  deliveryTime,
  reasonText,
  type StatusFilter,
} from './delivery-labels.ts'
import { DELIVERY_LIMIT, useDeliveries } from './useDeliveries.ts'

function Destination({ record }: { record: DeliveryRecord }) {
  const Icon = record.destination.kind === 'email' ? Mail : Webhook
  return (
    <span className="inline-flex min-w-0 items-center gap-1.5">
      <Icon className="size-3.5 shrink-0 text-gray-500" aria-label={record.destination.kind} />
      <span className="truncate">{record.destination.name || record.destination.id}</span>
    </span>
  )
}

function StatusBadge({ record }: { record: DeliveryRecord }) {
  return (
    <span
      data-status={record.status}
      className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ${DELIVERY_STATUS_CLASS[record.status]}`}
    >
      {DELIVERY_STATUS_LABEL[record.status]}
    </span>
  )
}

function Alerts({ record }: { record: DeliveryRecord }) {
  const kinds = [...new Set(record.eventKinds)].map((kind) => EVENT_KIND_LABEL[kind] ?? kind)
  const ids = record.alertIds
  return (
    <div className="min-w-0">
      <p className="break-words text-gray-900 dark:text-gray-100">{record.title || ids[0]}</p>
      <p className="text-xs text-gray-600 dark:text-gray-400">
        {ids.length === 1 ? ids[0] : `${ids.length} alerts`}
        {kinds.length > 0 && ` · ${kinds.join(', ')}`}
      </p>
    </div>
  )
}

/** Why it was not sent, or what went wrong: the answer to "why didn't I get it?". */
function Outcome({ record }: { record: DeliveryRecord }) {
  const reason = reasonText(record)
  return (
    <div className="min-w-0 text-xs">
      <p className="text-gray-700 dark:text-gray-300">{attemptsText(record.attempts)}</p>
      {reason && <p className="text-gray-700 dark:text-gray-300">{reason}</p>}
      {record.lastError && (
        <p className="break-words text-red-700 dark:text-red-400">Last error: {record.lastError}</p>
      )}
    </div>
  )
}

function DeliveryTable({ records, now }: { records: DeliveryRecord[]; now: number }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-gray-200 text-xs text-gray-600 dark:border-gray-800 dark:text-gray-400">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              Time
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Destination
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Alerts
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Status
            </th>
            <th scope="col" className="py-2 font-medium">
              Details
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100 dark:divide-gray-800">
          {records.map((record) => (
            <tr key={record.id} data-delivery={record.id} className="align-top">
              <td className="py-2 pr-3 whitespace-nowrap tabular-nums text-gray-700 dark:text-gray-300">
                {deliveryTime(record.sentAt ?? record.createdAt, now)}
              </td>
              <td className="max-w-48 py-2 pr-3 text-gray-800 dark:text-gray-200">
                <Destination record={record} />
              </td>
              <td className="max-w-md py-2 pr-3">
                <Alerts record={record} />
              </td>
              <td className="py-2 pr-3">
                <StatusBadge record={record} />
              </td>
              <td className="max-w-sm py-2">
                <Outcome record={record} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function DeliveryCards({ records, now }: { records: DeliveryRecord[]; now: number }) {
  return (
    <ul aria-label="Deliveries" className="flex flex-col gap-2">
      {records.map((record) => (
        <li
          key={record.id}
          data-delivery={record.id}
          className="flex flex-col gap-1.5 rounded-md border border-gray-200 p-2.5 text-sm dark:border-gray-800"
        >
          <div className="flex items-center justify-between gap-2">
            <Destination record={record} />
            <StatusBadge record={record} />
          </div>
          <Alerts record={record} />
          <Outcome record={record} />
          <p className="text-xs tabular-nums text-gray-600 dark:text-gray-400">
            {deliveryTime(record.sentAt ?? record.createdAt, now)}
          </p>
        </li>
      ))}
    </ul>
  )
}

/**
 * The delivery log (issue 15): per notification and destination, its status, attempts, last
 * error and why it was not sent. The server filters by status and pages; the newest 100 show.
 */
export function DeliveryLogCard() {
  const [status, setStatus] = useState<StatusFilter>('all')
  const { records, total, error, loading, refresh } = useDeliveries(status)
  const wide = useMediaQuery('(min-width: 768px)')
  const now = Date.now()
  return (
    <Card
      title="Delivery log"
      icon={<History className="size-4" aria-hidden />}
      description={
        records && total > records.length
          ? `Newest ${DELIVERY_LIMIT} of ${total} notifications`
          : 'Every notification to every destination, and why one was not sent.'
      }
      actions={
        <button
          type="button"
          className={BUTTON.secondary}
          onClick={refresh}
          aria-label="Refresh delivery log"
        >
          {loading ? (
            <Loader2 className="size-4 animate-spin" aria-hidden />
          ) : (
            <RefreshCw className="size-4" aria-hidden />
          )}
          Refresh
        </button>
      }
    >
      {/* A two-word filter ("Gave up") must not break inside its button on a phone: the row
          scrolls sideways instead. */}
      <div className="mb-3 overflow-x-auto [&_button]:whitespace-nowrap">
        <ToggleGroup
          label="Delivery status"
          value={status}
          options={STATUS_FILTERS}
          onChange={setStatus}
        />
      </div>
      {error && (
        <p role="alert" className="mb-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {records === null ? (
        !error && <EmptyState title="Loading delivery log..." live />
      ) : records.length === 0 ? (
        <EmptyState
          title="No notifications yet"
          description={
            status === 'all'
              ? 'Notifications appear here when alerts fire and a destination is enabled.'
              : 'None with this status.'
          }
        />
      ) : wide ? (
        <DeliveryTable records={records} now={now} />
      ) : (
        <DeliveryCards records={records} now={now} />
      )}
    </Card>
  )
}
