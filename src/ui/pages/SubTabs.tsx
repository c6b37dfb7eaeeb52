import { Link } from 'wouter'
import { FOCUS_RING } from '../components/button-classes.ts'
import { useWallView } from '../wall/wall-view.ts'

interface SubTabsProps {
  label: string
  tabs: readonly { path: string; label: string }[]
  active: string
}

/**
 * Second-level navigation inside an area (alerts, settings). On a phone the tabs wrap onto a
 * second line: every tab stays in sight, none is hidden past the edge. None in the wall view,
 * which shows one page and offers no navigation.
 */
export function SubTabs({ label, tabs, active }: SubTabsProps) {
  const wallView = useWallView()
  if (wallView) return null
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
