import { useEffect, useState } from 'react'

/** Epoch ms, refreshed every `ms` while mounted (ages and "stale since" texts). */
export function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms)
    return () => clearInterval(timer)
  }, [ms])
  return now
}
