import { Bell, HardDrive, LayoutDashboard, Settings, Archive } from 'lucide-react'
import { Link, useLocation } from 'wouter'
import { FOCUS_RING } from '../components/button-classes.ts'

const TABS = [
  { href: '/', label: 'Main', icon: LayoutDashboard, match: (p: string) => p === '/' },
  { href: '/storage', label: 'Storage', icon: HardDrive, match: (p: string) => p === '/storage' },
  { href: '/backups', label: 'Backups', icon: Archive, match: (p: string) => p === '/backups' },
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

/** Main navigation; the active tab carries aria-current="page". */
export function TabBar() {
  const [path] = useLocation()
  return (
    <nav
      aria-label="Main"
      className="flex gap-1 overflow-x-auto border-b border-gray-200 bg-white px-2 sm:px-4 dark:border-gray-800 dark:bg-gray-900"
    >
      {TABS.map((tab) => {
        const active = tab.match(path)
        const Icon = tab.icon
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={active ? 'page' : undefined}
            className={`-mb-px flex shrink-0 items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium ${FOCUS_RING} ${
              active
                ? 'border-blue-600 text-blue-700 dark:border-blue-400 dark:text-blue-300'
                : 'border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900 dark:text-gray-400 dark:hover:text-gray-100'
            }`}
          >
            <Icon className="size-4" aria-hidden />
            {tab.label}
          </Link>
        )
      })}
    </nav>
  )
}
