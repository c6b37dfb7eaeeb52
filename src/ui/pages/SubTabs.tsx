import { useEffect, useRef } from 'react'
import { Link } from 'wouter'
import { FOCUS_RING } from '../components/button-classes.ts'

interface SubTabsProps {
  label: string
  tabs: readonly { path: string; label: string }[]
  active: string
}

/** Second-level navigation inside an area (alerts, settings). */
export function SubTabs({ label, tabs, active }: SubTabsProps) {
  const nav = useRef<HTMLElement>(null)
  // On a phone the row scrolls sideways: the active tab is brought into view, not left cut off at
  // the edge (scrolling the row only, never the page).
  useEffect(() => {
    const row = nav.current
    const current = row?.querySelector<HTMLElement>('[aria-current="page"]')
    if (!row || !current) return
    const tab = current.getBoundingClientRect()
    const box = row.getBoundingClientRect()
    if (tab.left < box.left || tab.right > box.right) {
      row.scrollLeft += tab.left - box.left - (box.width - tab.width) / 2
    }
  }, [active])
  return (
    <nav ref={nav} aria-label={label} className="flex gap-1 overflow-x-auto px-3 pt-3 sm:px-4">
      {tabs.map((tab) => (
        <Link
          key={tab.path}
          href={tab.path}
          aria-current={tab.path === active ? 'page' : undefined}
          className={`shrink-0 rounded-md px-2.5 py-1 text-sm ${FOCUS_RING} ${
            tab.path === active
              ? 'bg-blue-600 text-white'
              : 'text-gray-600 hover:bg-gray-200 dark:text-gray-300 dark:hover:bg-gray-800'
          }`}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  )
}
