import { useSyncExternalStore } from 'react'

/** True while `query` matches (cards below the table breakpoint, spec 000 §2.4). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = matchMedia(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    () => matchMedia(query).matches,
    () => true,
  )
}
