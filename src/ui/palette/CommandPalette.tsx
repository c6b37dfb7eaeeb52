import {
  Archive,
  Bell,
  Box,
  FileText,
  HardDrive,
  Monitor,
  Server,
  Settings,
  Zap,
  type LucideIcon,
} from 'lucide-react'
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import type { PaletteItem, PaletteKind, PaletteResult } from '../../shared/views/palette-types.ts'
import { Modal } from '../components/Modal.tsx'
import { useWorker } from '../worker-context.ts'
import { useWallView } from '../wall/wall-view.ts'
import { usePaletteChoice } from './usePaletteChoice.ts'

const ICONS: Record<PaletteKind, LucideIcon> = {
  page: FileText,
  setting: Settings,
  action: Zap,
  guest: Monitor,
  node: Server,
  storage: HardDrive,
  pbs: Archive,
  alert: Bell,
}

/** Home and End move in the list too (the caret has Left and Right). */
const MOVES: Record<string, (active: number, count: number) => number> = {
  ArrowDown: (active, count) => (active + 1) % count,
  ArrowUp: (active, count) => (active - 1 + count) % count,
  Home: () => 0,
  End: (_active, count) => count - 1,
}

/**
 * The command palette (issue 28 item 6): a combobox over the worker's ranked matches, grouped by
 * kind. Up, Down, Home and End move, Enter or a click opens, Escape closes (Modal) and the focus
 * goes back where it was. Only the newest request's answer is shown.
 */
export function CommandPalette({ onClose }: { onClose: () => void }) {
  const api = useWorker()
  const wallView = useWallView()
  const choose = usePaletteChoice(onClose)
  const [query, setQuery] = useState('')
  const [result, setResult] = useState<PaletteResult | null>(null)
  const [active, setActive] = useState(0)
  const [failed, setFailed] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const list = useRef<HTMLDivElement>(null)
  const baseId = useId()
  const asked = useRef(0)

  useEffect(() => {
    // Typing faster than the answers come: an older answer never replaces a newer one.
    const ticket = ++asked.current
    Promise.resolve(api.palette({ query, wallView })).then(
      (answer) => {
        if (ticket !== asked.current) return
        setResult(answer)
        setActive(0)
        setFailed(false)
      },
      (error: unknown) => {
        if (ticket !== asked.current) return
        console.warn('The palette search failed', error)
        setFailed(true)
      },
    )
  }, [api, query, wallView])

  const items = result?.groups.flatMap((group) => group.items) ?? []
  const optionId = (index: number) => `${baseId}-option-${index}`
  const current = Math.min(active, Math.max(0, items.length - 1))

  useEffect(() => {
    list.current
      ?.querySelector(`[id="${CSS.escape(optionId(current))}"]`)
      ?.scrollIntoView({ block: 'nearest' })
    // optionId only depends on baseId, which never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current, result])

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return
    const move = MOVES[event.key]
    if (move && items.length > 0) {
      event.preventDefault()
      setActive(move(current, items.length))
    } else if (event.key === 'Enter' && items[current]) {
      event.preventDefault()
      choose(items[current])
    }
  }

  let index = 0
  return (
    <Modal title="Go to" onClose={onClose} size="lg" placement="top" initialFocus={input}>
      <input
        ref={input}
        type="text"
        role="combobox"
        aria-label="Search pages, settings, guests, nodes, storage and alerts"
        aria-expanded={items.length > 0}
        aria-controls={`${baseId}-list`}
        aria-autocomplete="list"
        aria-activedescendant={items.length > 0 ? optionId(current) : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder="Name, VMID, node, page or setting…"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={onKeyDown}
        className="w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base text-gray-900 placeholder:text-gray-400 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/30 focus:outline-none dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 dark:placeholder:text-gray-500"
      />
      <div
        ref={list}
        id={`${baseId}-list`}
        role="listbox"
        aria-label="Results"
        className="mt-2 max-h-[min(60vh,32rem)] overflow-y-auto"
      >
        {result?.groups.map((group) => (
          <div key={group.kind} role="group" aria-labelledby={`${baseId}-${group.kind}`}>
            <div
              id={`${baseId}-${group.kind}`}
              className="sticky top-0 z-10 flex justify-between bg-white px-2 pt-2 pb-1 text-xs font-semibold tracking-wide text-gray-500 uppercase dark:bg-gray-900 dark:text-gray-400"
            >
              <span>{group.label}</span>
              {group.total > group.items.length && (
                <span className="font-normal tracking-normal normal-case tabular-nums">
                  {group.items.length} of {group.total.toLocaleString('en-US')}
                </span>
              )}
            </div>
            {group.items.map((item) => {
              const at = index++
              return (
                <Option
                  key={item.key}
                  id={optionId(at)}
                  item={item}
                  selected={at === current}
                  onHover={() => setActive(at)}
                  onChoose={() => choose(item)}
                />
              )
            })}
          </div>
        ))}
      </div>
      <p role="status" className="px-2 pt-2 text-xs text-gray-500 dark:text-gray-400">
        {failed
          ? 'The search failed; try again.'
          : result && items.length === 0
            ? `Nothing matches “${query.trim()}”.`
            : result
              ? `${items.length} result${items.length === 1 ? '' : 's'}`
              : ''}
        <span className="hidden sm:inline"> · ↑ ↓ to move, Enter to open, Esc to close</span>
      </p>
    </Modal>
  )
}

interface OptionProps {
  id: string
  item: PaletteItem
  selected: boolean
  onHover: () => void
  onChoose: () => void
}

/** One result: the kind's icon, the name and a line of detail. */
function Option({ id, item, selected, onHover, onChoose }: OptionProps) {
  const Icon = item.kind === 'guest' && item.detail.startsWith('CT') ? Box : ICONS[item.kind]
  return (
    <div
      id={id}
      role="option"
      aria-selected={selected}
      // The focus stays in the input: a press must not move it to the option.
      onMouseDown={(event) => event.preventDefault()}
      onMouseMove={selected ? undefined : onHover}
      onClick={onChoose}
      className={`flex cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 ${
        selected
          ? 'bg-blue-50 text-blue-900 ring-1 ring-blue-500/40 ring-inset dark:bg-blue-500/15 dark:text-blue-100'
          : 'text-gray-800 dark:text-gray-200'
      }`}
    >
      <Icon className="size-4 shrink-0 text-gray-500 dark:text-gray-400" aria-hidden />
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm font-medium">{item.label}</span>
        <span className="block truncate text-xs text-gray-500 dark:text-gray-400">
          {item.detail}
        </span>
      </span>
    </div>
  )
}
