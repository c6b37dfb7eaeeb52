// The quiet-hours time zone choices (spec 001 §2: about 70 zones): a curated list grouped by
// region, each labelled with its current UTC offset computed by Intl (so daylight saving shows as
// it is today, not as a hard-coded table would have it).

/** Zones by region, in the order the select shows them. */
export const ZONE_REGIONS: readonly { region: string; zones: readonly string[] }[] = [
  { region: 'Universal', zones: ['UTC'] },
  {
    region: 'Europe',
    zones: [
      'Europe/London',
      'Europe/Dublin',
      'Europe/Lisbon',
      'Europe/Paris',
      'Europe/Berlin',
      'Europe/Amsterdam',
      'Europe/Brussels',
      'Europe/Madrid',
      'Europe/Rome',
      'Europe/Zurich',
      'Europe/Vienna',
      'Europe/Stockholm',
      'Europe/Oslo',
      'Europe/Copenhagen',
      'Europe/Warsaw',
      'Europe/Prague',
      'Europe/Budapest',
      'Europe/Athens',
      'Europe/Helsinki',
      'Europe/Kyiv',
      'Europe/Bucharest',
      'Europe/Istanbul',
      'Europe/Moscow',
    ],
  },
  {
    region: 'Americas',
    zones: [
      'America/New_York',
      'America/Chicago',
      'America/Denver',
      'America/Phoenix',
      'America/Los_Angeles',
      'America/Anchorage',
      'Pacific/Honolulu',
      'America/Toronto',
      'America/Vancouver',
      'America/Halifax',
      'America/St_Johns',
      'America/Mexico_City',
      'America/Bogota',
      'America/Lima',
      'America/Caracas',
      'America/Santiago',
      'America/Sao_Paulo',
      'America/Argentina/Buenos_Aires',
    ],
  },
  {
    region: 'Asia',
    zones: [
      'Asia/Dubai',
      'Asia/Tehran',
      'Asia/Karachi',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Asia/Dhaka',
      'Asia/Bangkok',
      'Asia/Jakarta',
      'Asia/Singapore',
      'Asia/Hong_Kong',
      'Asia/Shanghai',
      'Asia/Taipei',
      'Asia/Manila',
      'Asia/Seoul',
      'Asia/Tokyo',
      'Asia/Jerusalem',
      'Asia/Riyadh',
    ],
  },
  {
    region: 'Africa',
    zones: [
      'Africa/Casablanca',
      'Africa/Lagos',
      'Africa/Cairo',
      'Africa/Johannesburg',
      'Africa/Nairobi',
    ],
  },
  {
    region: 'Australia & Pacific',
    zones: [
      'Australia/Perth',
      'Australia/Darwin',
      'Australia/Adelaide',
      'Australia/Brisbane',
      'Australia/Sydney',
      'Australia/Melbourne',
      'Australia/Hobart',
      'Pacific/Auckland',
      'Pacific/Fiji',
    ],
  },
]

export interface ZoneOption {
  zone: string
  /** 'Europe/Berlin (UTC+01:00)'. */
  label: string
}

export interface ZoneGroup {
  region: string
  options: ZoneOption[]
}

/**
 * The zone's offset from UTC at `at`, as '+01:00' / '-03:30' / '+00:00'; null for a zone this
 * runtime does not know.
 */
export function zoneOffset(zone: string, at: Date): string | null {
  let parts: Intl.DateTimeFormatPart[]
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    }).formatToParts(at)
  } catch {
    return null
  }
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((part) => part.type === type)?.value ?? 0)
  // Wall-clock time in the zone read back as if it were UTC: the difference is the offset.
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'))
  const utc = Math.floor(at.getTime() / 60_000) * 60_000
  const minutes = Math.round((wall - utc) / 60_000)
  const sign = minutes < 0 ? '-' : '+'
  const abs = Math.abs(minutes)
  const hh = String(Math.floor(abs / 60)).padStart(2, '0')
  const mm = String(abs % 60).padStart(2, '0')
  return `${sign}${hh}:${mm}`
}

function option(zone: string, at: Date): ZoneOption | null {
  const offset = zoneOffset(zone, at)
  return offset === null ? null : { zone, label: `${zone} (UTC${offset})` }
}

/**
 * The select's groups: first 'Your time zone' (the browser's own, and the saved one when the list
 * lacks it, so the select never shows a value it has no option for), then the curated regions
 * without those two. Zones the runtime does not know are left out.
 */
export function zoneGroups(at: Date, browserZone: string, savedZone: string): ZoneGroup[] {
  const first: ZoneOption[] = []
  const taken = new Set<string>()
  const curated = new Set(ZONE_REGIONS.flatMap((group) => group.zones))
  for (const zone of [browserZone, savedZone]) {
    if (taken.has(zone) || (zone !== browserZone && curated.has(zone))) continue
    const entry = option(zone, at)
    if (!entry) continue
    first.push(zone === browserZone ? { zone, label: `${entry.label} - browser` } : entry)
    taken.add(zone)
  }
  const groups: ZoneGroup[] = first.length > 0 ? [{ region: 'Your time zone', options: first }] : []
  for (const { region, zones } of ZONE_REGIONS) {
    const options: ZoneOption[] = []
    for (const zone of zones) {
      if (taken.has(zone)) continue
      const entry = option(zone, at)
      if (entry) options.push(entry)
    }
    if (options.length > 0) groups.push({ region, options })
  }
  return groups
}
