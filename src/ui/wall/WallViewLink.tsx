import { MonitorUp } from 'lucide-react'
import { Link, useLocation } from 'wouter'
import { FOCUS_RING } from '../components/button-classes.ts'
import { wallViewHref } from './wall-view.ts'

/** The header's way into the wall view of the tab shown (or of Main from any other page). */
export function WallViewLink() {
  const [path] = useLocation()
  return (
    <Link
      href={wallViewHref(path)}
      aria-label="Wall view"
      title="Wall view: this live tab alone, in larger type, for a screen on the wall"
      className={`inline-flex items-center rounded-md p-1.5 text-gray-600 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800 ${FOCUS_RING}`}
    >
      <MonitorUp className="size-4" aria-hidden />
    </Link>
  )
}
