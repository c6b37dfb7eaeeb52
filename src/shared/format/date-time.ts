// Local date and time for display, 24-hour as everywhere in the UI: 'YYYY-MM-DD HH:mm:ss'.

const pad = (n: number) => String(n).padStart(2, '0')

/** 'YYYY-MM-DD HH:mm:ss' (or without seconds) in the runtime's local time zone. */
export function formatLocalDateTime(ms: number, withSeconds = true): string {
  const at = new Date(ms)
  const date = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`
  return `${date} ${time}${withSeconds ? `:${pad(at.getSeconds())}` : ''}`
}
