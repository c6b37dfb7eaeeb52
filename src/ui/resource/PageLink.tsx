// The link from a table row to a resource's page (issue 25): an icon (with text where there is
// room) that names its target for assistive technology and never toggles the row it sits in.
import { CircleArrowRight } from 'lucide-react'
import { Link } from 'wouter'
import { FOCUS_RING } from '../components/button-classes.ts'

interface Props {
  href: string
  /** Accessible name ('Open the page of web-01'). */
  label: string
  /** Visible text beside the icon; icon only when omitted. */
  text?: string
}

/** A link to a resource page; its click stops at the link (the row does not expand). */
export function PageLink({ href, label, text }: Props) {
  return (
    <Link
      href={href}
      aria-label={label}
      title={label}
      data-no-expand
      onClick={(event) => event.stopPropagation()}
      className={`inline-flex shrink-0 items-center gap-1 rounded text-blue-700 hover:underline dark:text-blue-300 ${FOCUS_RING}`}
    >
      <CircleArrowRight aria-hidden className="size-3.5" />
      {text && <span>{text}</span>}
    </Link>
  )
}
