import { useMemo } from 'react'
import { zoneGroups } from '../../../shared/views/schedule-zones.ts'
import { SELECT } from './fields.tsx'

/** The browser's own IANA zone (UTC when it says none). */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}

/**
 * A time-zone select: the zones grouped by region with their offsets now, the browser's marked.
 * Offsets are computed when the chosen zone changes, not per render (~70 formatters).
 */
export function ZoneSelect({
  id,
  value,
  onChange,
  className = '',
}: {
  id?: string
  value: string
  onChange: (zone: string) => void
  className?: string
}) {
  const groups = useMemo(() => zoneGroups(new Date(), browserZone(), value), [value])
  return (
    <select
      id={id}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      className={`${SELECT} ${className}`}
    >
      {groups.map((group) => (
        <optgroup key={group.region} label={group.region}>
          {group.options.map((option) => (
            <option key={option.zone} value={option.zone}>
              {option.label}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  )
}
