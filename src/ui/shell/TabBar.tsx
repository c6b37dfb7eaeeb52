import { Bell, HardDrive, LayoutDashboard, Settings, Archive } from 'lucide-react'
import { Link, useLocation } from 'wouter'
import { FOCUS_RING } from '../components/button-classes.ts'
import { useVisibleUpdate } from '../updates/useUpdates.ts'

const TABS = [
  { href: '/', label: 'Main', icon: LayoutDashboard, match: (p: string) => p === '/' },
  { href: '/storage', label: 'Storage', icon: HardDrive, match: (p: string) => p === '/storage' },
  {
    href: '/backups',
    label: 'Backups',
    icon: Archive,
    match: (p: string) => p === '/backups' || p.startsWith('/backups/'),
  },
  {
    href: '/alerts/overview',
    label: 'Alerts',
    icon: Bell,
    match: (p: string) => p === '/alerts' || p.startsWith('/alerts/'),
  },
  {
    href: '/settings/pve',
    label: 'Settings',
    icon: Settings,
    match: (p: string) => p === '/settings' || p.startsWith('/settings/'),
  },
] as const

/**
 * Main navigation; the active tab carries aria-current="page". On a phone the five tabs share the
 * width in equal columns, icon over label, so Settings is never scrolled off screen.
 */
export function TabBar() {
  const [path] = useLocation()
  const update = useVisibleUpdate()
  return (
    <nav
      aria-label="Main"
      className="grid grid-cols-5 border-b border-gray-200 bg-white sm:flex sm:gap-1 sm:px-4 dark:border-gray-800 dark:bg-gray-900"
    >
      {TABS.map((tab) => {
        const active = tab.match(path)
        const Icon = tab.icon
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={active ? 'page' : undefined}
            className={`-mb-px flex min-w-0 flex-col items-center gap-0.5 border-b-2 px-1 py-1.5 text-xs font-medium sm:shrink-0 sm:flex-row sm:gap-1.5 sm:px-3 sm:py-2 sm:text-sm ${FOCUS_RING} ${
              active
                ? 'border-blue-600 text-blue-700 dark:border-blue-400 dark:text-blue-300'
                : 'border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900 dark:text-gray-400 dark:hover:text-gray-100'
            }`}
          >
            <span className="relative">
              <Icon className="size-4" aria-hidden />
              {tab.label === 'Settings' && update && (
                // Spec 001 §2: the red dot while an update is visible; named for screen readers.
                <span
                  data-update-dot
                  className="absolute -top-0.5 -right-0.5 size-2 rounded-full bg-red-600 ring-2 ring-white dark:ring-gray-900"
                />
              )}
            </span>
            {tab.label}
            {tab.label === 'Settings' && update && (
              <span className="sr-only"> (update available)</span>
            )}
          </Link>
        )
      })}
    </nav>
  )
}
