import { Link } from 'wouter'
import { FOCUS_RING } from '../components/button-classes.ts'

interface SubTabsProps {
  label: string
  tabs: readonly { path: string; label: string }[]
  active: string
}

/**
 * Second-level navigation inside an area (alerts, settings). On a phone the tabs wrap onto a
 * second line: every tab stays in sight, none is hidden past the edge.
 */
export function SubTabs({ label, tabs, active }: SubTabsProps) {
  return (
    <nav aria-label={label} className="flex flex-wrap gap-1 px-3 pt-3 sm:px-4">
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
