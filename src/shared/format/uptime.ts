// Uptime (spec 000 §9): 'Nd Nh', 'Nh Nm' or 'Nm'; under an hour is shown orange.

/** Seconds under which uptime counts as short (shown orange). */
export const SHORT_UPTIME_SECONDS = 3600

/** Seconds as 'Nd Nh' (a day or more), 'Nh Nm' (an hour or more) or 'Nm'. */
export function formatUptime(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0
  const days = Math.floor(total / 86_400)
  const hours = Math.floor((total % 86_400) / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  if (days > 0) return `${days}d ${hours}h`
  if (hours > 0) return `${hours}h ${minutes}m`
  return `${minutes}m`
}

/** True when an uptime is under an hour (the UI shows it orange). */
export function isShortUptime(seconds: number): boolean {
  return seconds < SHORT_UPTIME_SECONDS
}
