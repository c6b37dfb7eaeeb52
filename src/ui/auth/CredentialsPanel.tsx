import { Check, Copy, Download, KeyRound } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { BUTTON, FOCUS_RING } from '../components/button-classes.ts'
import type { SetupCredentials } from './auth-store.ts'
import { CREDENTIALS_FILE, credentialsText, downloadText } from './download.ts'

/** Spec 001 §9: the copied indicator lasts 2 s. */
export const COPIED_MS = 2_000

/** A labelled one-time value with a Copy button and a copied (or failed) note. */
export function CopyRow({ label, value }: { label: string; value: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const copy = async () => {
    clearTimeout(timer.current)
    try {
      await navigator.clipboard.writeText(value)
      setState('copied')
      timer.current = setTimeout(() => setState('idle'), COPIED_MS)
    } catch {
      setState('failed')
    }
  }
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium tracking-wide text-gray-500 uppercase dark:text-gray-400">
        {label}
      </span>
      <div className="flex items-center gap-2">
        <code
          data-credential={label}
          className="min-w-0 flex-1 rounded-md border border-gray-200 bg-gray-50 px-2 py-1.5 font-mono text-sm break-all select-all dark:border-gray-700 dark:bg-gray-800"
        >
          {value}
        </code>
        <button
          type="button"
          aria-label={`Copy ${label.toLowerCase()}`}
          onClick={() => void copy()}
          className={`shrink-0 rounded-md border border-gray-300 p-1.5 text-gray-600 hover:bg-gray-50 dark:border-gray-600 dark:text-gray-300 dark:hover:bg-gray-800 ${FOCUS_RING}`}
        >
          {state === 'copied' ? (
            <Check className="size-4 text-emerald-600" aria-hidden />
          ) : (
            <Copy className="size-4" aria-hidden />
          )}
        </button>
      </div>
      <span role="status" className="text-xs">
        {state === 'copied' && (
          <span className="text-emerald-700 dark:text-emerald-400">Copied</span>
        )}
        {state === 'failed' && (
          <span className="text-red-700 dark:text-red-400">Failed to copy to clipboard</span>
        )}
      </span>
    </div>
  )
}

/**
 * The one-time display of new credentials (spec 001 §2 Security tab quick setup): each value
 * with Copy, "Download credentials", and "Done - I've Saved My Credentials".
 */
export function CredentialsPanel({
  credentials,
  generated,
  onDone,
}: {
  credentials: SetupCredentials
  /** The password was generated (Auto-Generate), not typed. */
  generated: boolean
  onDone: () => void
}) {
  const download = () =>
    downloadText(CREDENTIALS_FILE, credentialsText(credentials, window.location.origin))
  return (
    <div className="flex flex-col gap-4">
      <div
        role="status"
        className="flex items-start gap-2 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
      >
        <KeyRound className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>
          {generated
            ? 'Admin credentials generated. Save them before continuing.'
            : 'Security configured. Save your credentials before continuing.'}{' '}
          The password and API token are shown only this once.
        </span>
      </div>
      <CopyRow label="Username" value={credentials.username} />
      <CopyRow label="Password" value={credentials.password} />
      <CopyRow label="API token" value={credentials.apiToken} />
      <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
        <button type="button" onClick={download} className={`${BUTTON.secondary} justify-center`}>
          <Download className="size-4" aria-hidden />
          Download credentials
        </button>
        <button type="button" onClick={onDone} className={`${BUTTON.primary} justify-center`}>
          Done - I&apos;ve Saved My Credentials
        </button>
      </div>
    </div>
  )
}
