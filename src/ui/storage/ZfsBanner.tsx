import { AlertTriangle } from 'lucide-react'
import type { StorageZfsIssue } from '../../shared/views/storage-types.ts'

/** The 'ZFS Pool Status' banner: error counts and degraded devices per pool (spec 000 §2.3). */
export function ZfsBanner({ issues }: { issues: readonly StorageZfsIssue[] }) {
  if (issues.length === 0) return null
  return (
    <section
      role="alert"
      aria-label="ZFS Pool Status"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-200"
    >
      <h2 className="mb-1 flex items-center gap-1.5 font-semibold">
        <AlertTriangle className="size-4" aria-hidden />
        ZFS Pool Status
      </h2>
      <ul className="flex flex-col gap-1.5">
        {issues.map((issue) => (
          <li key={issue.key}>
            <p>
              <span className="font-medium">{issue.pool || issue.storage}</span> on {issue.node}:{' '}
              {issue.state} · read errors {issue.readErrors} · write errors {issue.writeErrors} ·
              checksum errors {issue.checksumErrors}
            </p>
            {issue.devices.length > 0 && (
              <ul className="ml-4 list-disc text-xs">
                {issue.devices.map((device) => (
                  <li key={device.name}>
                    {device.name}: {device.state}
                    {device.errors > 0 && ` (${device.errors} errors)`}
                    {device.message && ` – ${device.message}`}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
