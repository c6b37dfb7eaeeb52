import { Check, Copy, Download, Loader2, Terminal } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { COPIED_MS } from '../../auth/CredentialsPanel.tsx'
import { downloadText } from '../../auth/download.ts'
import { BUTTON } from '../../components/button-classes.ts'
import { showToast } from '../../components/toast-store.ts'
import { clockTime } from '../../lib/time.ts'
import { MONITOR_USER, manualSetupCommands } from './node-form.ts'
import {
  createSetupCommand,
  fetchSetupScript,
  setupScriptPath,
  type NodeType,
  type SetupScriptUrl,
} from './nodes-api.ts'

const HOST_FIRST = 'Please enter the Host URL first'

/** Copies `text`; true while the copied indicator shows (spec 001 §9: 2 s). */
function useCopy(success: string, failure: string) {
  const [copied, setCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const copy = async (text: string) => {
    clearTimeout(timer.current)
    try {
      await navigator.clipboard.writeText(text)
    } catch {
      setCopied(false)
      showToast(failure, 'error')
      return
    }
    setCopied(true)
    showToast(success, 'success')
    timer.current = setTimeout(() => setCopied(false), COPIED_MS)
  }
  return { copied, copy }
}

/** A command block with a Copy button. */
function CommandBlock({
  label,
  text,
  success,
}: {
  label: string
  text: string
  /** The copied toast. */
  success: string
}) {
  const { copied, copy } = useCopy(success, 'Failed to copy command')
  const id = useId()
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <span
          id={id}
          className="min-w-0 flex-1 text-xs font-medium text-gray-700 dark:text-gray-300"
        >
          {label}
        </span>
        <button
          type="button"
          onClick={() => void copy(text)}
          aria-describedby={id}
          className={`${BUTTON.secondary} px-2 py-1 text-xs`}
        >
          {copied ? (
            <Check className="size-3.5 text-emerald-600" aria-hidden />
          ) : (
            <Copy className="size-3.5" aria-hidden />
          )}
          {copied ? 'Copied!' : 'Copy'}
        </button>
      </div>
      <pre
        aria-labelledby={id}
        className="overflow-x-auto rounded-md border border-gray-200 bg-gray-50 px-3 py-2 font-mono text-xs whitespace-pre-wrap break-all text-gray-900 dark:border-gray-700 dark:bg-gray-950 dark:text-gray-100"
      >
        {text}
      </pre>
    </div>
  )
}

export interface QuickSetupProps {
  type: NodeType
  host: string
  /** The generated command; dropped by the modal when the host changes. */
  setup: SetupScriptUrl | null
  onSetup: (setup: SetupScriptUrl | null) => void
}

/** The file name of the downloaded setup script. */
export function scriptFileName(type: NodeType): string {
  return `pulse-setup-${type}.sh`
}

/**
 * Quick Setup (spec 001 §2, §7): a one-time setup command (POST /api/setup-script-url) to copy
 * into the node's shell, or the script itself (GET /api/setup-script) to download.
 */
export function QuickSetup({ type, host, setup, onSetup }: QuickSetupProps) {
  const [busy, setBusy] = useState<'generate' | 'download' | null>(null)
  const [backupPerms, setBackupPerms] = useState(true)
  const permsId = useId()

  const generate = async () => {
    if (!host.trim()) {
      showToast(HOST_FIRST, 'error')
      return
    }
    setBusy('generate')
    try {
      onSetup(await createSetupCommand(type, host.trim(), type === 'pve' && backupPerms))
    } catch (error) {
      showToast(error instanceof Error ? error.message : 'Failed to generate setup URL', 'error')
    } finally {
      setBusy(null)
    }
  }

  const download = async () => {
    if (!host.trim()) {
      showToast(HOST_FIRST, 'error')
      return
    }
    setBusy('download')
    try {
      const path = setupScriptPath(type, host.trim(), type === 'pve' && backupPerms)
      const name = scriptFileName(type)
      downloadText(name, await fetchSetupScript(path), 'text/x-shellscript')
      showToast(`Script downloaded! Copy it to the node and run: bash ${name}`, 'success')
    } catch (error) {
      const text = error instanceof Error ? error.message : ''
      showToast(text || 'Failed to download script. Please check your connection.', 'error')
    } finally {
      setBusy(null)
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <p className="text-xs text-gray-600 dark:text-gray-400">
        Run one command as root in the shell of the {type === 'pve' ? 'Proxmox VE' : 'Backup'}{' '}
        server: it creates the <code>{MONITOR_USER[type]}</code> user and an API token with
        read-only access. Then enter the token it prints below.
      </p>
      {type === 'pve' && (
        <label htmlFor={permsId} className="flex items-center gap-2 text-sm">
          <input
            id={permsId}
            type="checkbox"
            checked={backupPerms}
            onChange={(event) => {
              setBackupPerms(event.target.checked)
              onSetup(null)
            }}
            className="size-4 rounded border-gray-300 dark:border-gray-600"
          />
          Include backup visibility (PVEDatastoreAdmin on /storage)
        </label>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={() => void generate()}
          disabled={busy !== null}
          className={`${BUTTON.secondary} disabled:opacity-60`}
        >
          {busy === 'generate' ? (
            <Loader2 className="size-4 animate-spin" aria-hidden />
          ) : (
            <Terminal className="size-4" aria-hidden />
          )}
          {busy === 'generate' ? 'Generating...' : 'Generate setup command'}
        </button>
        <button
          type="button"
          onClick={() => void download()}
          disabled={busy !== null}
          className={`${BUTTON.secondary} disabled:opacity-60`}
        >
          {busy === 'download' ? (
            <Loader2 className="size-4 animate-spin" aria-hidden />
          ) : (
            <Download className="size-4" aria-hidden />
          )}
          Download script
        </button>
      </div>
      {setup && (
        <div className="flex flex-col gap-1" data-testid="setup-command">
          <CommandBlock
            label="Setup command"
            text={setup.command}
            success="Command copied to clipboard!"
          />
          {setup.expires > 0 && (
            <p className="text-xs text-gray-600 dark:text-gray-400">
              Works once; expires at {clockTime(setup.expires * 1000)}.
            </p>
          )}
        </div>
      )}
    </div>
  )
}

/** Manual Setup (spec 001 §6): the commands to run by hand, then the token's fields. */
export function ManualSetup({ type }: { type: NodeType }) {
  const commands = manualSetupCommands(type).join('\n')
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs text-gray-600 dark:text-gray-400">
        Run these as root on the {type === 'pve' ? 'Proxmox VE node' : 'Backup Server'}, then copy
        the token id and the secret value it prints into the fields below.
      </p>
      <CommandBlock label="Setup commands" text={commands} success="Command copied!" />
    </div>
  )
}
