import { CircleHelp } from 'lucide-react'
import { useCallback, useId, useRef, useState } from 'react'
import { FOCUS_RING } from '../components/button-classes.ts'
import { useDismiss } from '../hooks/useDismiss.ts'

/** The search tips of spec 000 §2.2, each with an example and a short explanation. */
const TIPS = [
  { example: 'web', text: 'Plain text matches name' },
  { example: 'cpu>80', text: 'CPU above 80%' },
  { example: 'memory<20', text: 'Memory below 20%' },
  { example: 'tags:prod', text: 'Tagged prod' },
  { example: 'node:pve1', text: 'Runs on node pve1' },
  { example: 'cpu>80 AND node:pve1', text: 'Combine filters with AND / OR' },
] as const

/**
 * The search-tips button and its popover (a disclosure: static text, focus stays on the button). The wrapper carries `data-search-popup` so the search
 * box does not save history when focus moves here (spec 000 §5).
 */
export function SearchTips() {
  const [open, setOpen] = useState(false)
  const id = useId()
  const wrapper = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const close = useCallback((reason: 'escape' | 'outside') => {
    setOpen(false)
    if (reason === 'escape') button.current?.focus()
  }, [])
  useDismiss(open, wrapper, close)
  return (
    <div ref={wrapper} data-search-popup="">
      <button
        ref={button}
        type="button"
        aria-label="Search tips"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((was) => !was)}
        className={`rounded-md border border-gray-300 bg-white p-1.5 text-gray-500 hover:text-gray-800 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-400 dark:hover:text-gray-100 ${FOCUS_RING}`}
      >
        <CircleHelp className="size-4" aria-hidden />
      </button>
      {open && (
        <div
          id={id}
          role="region"
          aria-label="Search tips"
          className="absolute top-full right-0 z-30 mt-1 w-72 max-w-full rounded-md border border-gray-200 bg-white p-3 text-sm shadow-lg dark:border-gray-700 dark:bg-gray-800"
        >
          <p className="mb-2 font-medium text-gray-800 dark:text-gray-100">Search tips</p>
          <ul className="space-y-1.5">
            {TIPS.map((tip) => (
              <li key={tip.example} className="flex flex-wrap items-baseline gap-x-2">
                <code className="rounded bg-gray-100 px-1 font-mono text-xs text-gray-800 dark:bg-gray-700 dark:text-gray-100">
                  {tip.example}
                </code>
                <span className="text-xs text-gray-600 dark:text-gray-300">{tip.text}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}
