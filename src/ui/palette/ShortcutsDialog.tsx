import { Modal } from '../components/Modal.tsx'

/** 'Ctrl' or '⌘' as the platform names the palette's modifier. */
export function modifierLabel(): string {
  const platform =
    (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ??
    navigator.platform
  return /mac|iphone|ipad/i.test(platform) ? '⌘' : 'Ctrl'
}

const KBD =
  'rounded border border-gray-300 bg-gray-50 px-1.5 py-px font-mono text-xs text-gray-700 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-200'

function Keys({ keys }: { keys: readonly string[] }) {
  return (
    <span className="flex flex-wrap gap-1">
      {keys.map((key) => (
        <kbd key={key} className={KBD}>
          {key}
        </kbd>
      ))}
    </span>
  )
}

/** The list the '?' key opens: every keyboard shortcut of the app, and the wall view. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const mod = modifierLabel()
  const rows: Array<{ keys: readonly string[]; text: string }> = [
    {
      keys: [`${mod} K`],
      text: 'Command palette: go to a guest, node, storage, backup server, alert, page or setting.',
    },
    { keys: ['↑', '↓', 'Home', 'End', 'Enter'], text: 'In the palette: move, then open.' },
    {
      keys: ['Any letter'],
      text: 'Types into the search box of Main, Storage, Backups and the alert lists.',
    },
    {
      keys: ['Esc'],
      text: 'Closes a dialog or menu; on a live tab deselects the node, clears the filters, then hides or shows the filter bar.',
    },
    {
      keys: ['Enter', 'Space'],
      text: 'On a column header: sorts by that column; again, the other way.',
    },
    { keys: ['?'], text: 'This list.' },
  ]
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} size="md">
      <dl className="grid grid-cols-[6.5rem_1fr] gap-x-4 gap-y-2.5 text-sm sm:grid-cols-[auto_1fr]">
        {rows.map((row) => (
          <div key={row.text} className="contents">
            <dt>
              <Keys keys={row.keys} />
            </dt>
            <dd className="text-gray-700 dark:text-gray-300">{row.text}</dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-4 text-sm font-semibold">Wall view</h3>
      <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
        The live tab alone in larger type, for a screen on the wall: the Wall view button in the
        header, the palette, or <code className="font-mono text-xs">?kiosk=1</code> on the address
        of Main, Storage, Backups or the alerts overview. It reloads itself when the server is
        updated. Leave it with <em>Exit wall view</em> at the bottom right.
      </p>
    </Modal>
  )
}
