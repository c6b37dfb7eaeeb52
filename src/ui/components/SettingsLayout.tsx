import type { ReactNode } from 'react'

/**
 * The one layout of a settings page: its cards (Card) in a column, with the same maximum width,
 * padding and spacing on every tab, so no tab's cards run to the window's edge.
 */
export function SettingsLayout({ children }: { children: ReactNode }) {
  return <div className="mx-auto flex w-full max-w-5xl flex-col gap-4 p-3 sm:p-4">{children}</div>
}
