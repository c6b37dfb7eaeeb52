const pad = (n: number) => String(n).padStart(2, '0')

/** Local wall-clock time of an epoch-ms instant as HH:MM:SS. */
export function clockTime(epochMs: number): string {
  const d = new Date(epochMs)
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}
