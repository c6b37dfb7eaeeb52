import { useId, useState, type MouseEvent } from 'react'
import { createPortal } from 'react-dom'
import { stripMarkup, tagColour } from '../lib/tag-colours.ts'

/** Tags shown as dots before the rest collapse into '+N' (spec 000 §9). */
export const MAX_VISIBLE_TAGS = 3

interface Props {
  tags: readonly string[]
  /** Called with the tag whose dot was clicked. */
  onTag: (tag: string) => void
}

/** A guest's tags as coloured dots; each dot adds a `tags:<tag>` search term. */
export function TagDots({ tags, onTag }: Props) {
  if (tags.length === 0) return null
  const rest = tags.slice(MAX_VISIBLE_TAGS)
  const click = (tag: string) => (event: MouseEvent) => {
    // The row expands on click; a tag click filters only.
    event.stopPropagation()
    onTag(tag)
  }
  return (
    <span className="inline-flex shrink-0 items-center gap-1" data-no-expand>
      {tags.slice(0, MAX_VISIBLE_TAGS).map((tag) => (
        <button
          key={tag}
          type="button"
          aria-label={`Filter by tag ${tag}`}
          title={stripMarkup(tag)}
          onClick={click(tag)}
          className="size-2.5 shrink-0 rounded-full ring-offset-1 ring-offset-white hover:ring-2 hover:ring-gray-400 focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:outline-none dark:ring-offset-gray-900"
          style={{ backgroundColor: tagColour(tag) }}
        />
      ))}
      {rest.length > 0 && <MoreTags tags={rest} />}
    </span>
  )
}

/** '+N' with a tooltip (max 240 px) listing the hidden tags; fixed so no cell clips it. */
function MoreTags({ tags }: { tags: readonly string[] }) {
  const id = useId()
  const [at, setAt] = useState<{ left: number; top: number } | null>(null)
  const text = stripMarkup(tags.join(', '))
  const show = (target: HTMLElement) => {
    const rect = target.getBoundingClientRect()
    setAt({ left: rect.left, top: rect.bottom + 4 })
  }
  const hide = () => setAt(null)
  return (
    <>
      <button
        type="button"
        aria-label={`${tags.length} more tags: ${text}`}
        aria-describedby={at ? id : undefined}
        onMouseEnter={(e) => show(e.currentTarget)}
        onMouseLeave={hide}
        onFocus={(e) => show(e.currentTarget)}
        onBlur={hide}
        onKeyDown={(e) => {
          // Only when open: the Escape closes the tooltip and must not also reset the filters.
          if (e.key === 'Escape' && at) {
            e.preventDefault()
            hide()
          }
        }}
        onClick={(e) => {
          e.stopPropagation()
          if (at) hide()
          else show(e.currentTarget)
        }}
        className="rounded px-0.5 text-[10px] leading-none font-medium text-gray-500 hover:text-gray-800 focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:outline-none dark:text-gray-400 dark:hover:text-gray-100"
      >
        +{tags.length}
      </button>
      {at &&
        createPortal(
          <div
            id={id}
            role="tooltip"
            className="pointer-events-none fixed z-50 rounded bg-gray-900 px-2 py-1 text-xs break-words text-white shadow-lg dark:bg-gray-700"
            style={{ left: at.left, top: at.top, maxWidth: 240 }}
          >
            {text}
          </div>,
          document.body,
        )}
    </>
  )
}
