import { ShieldOff } from 'lucide-react'
import { Banner } from './Banner.tsx'

export const AUTH_BANNER_DISMISSED_KEY = 'pulse.authBannerDismissed'

/** The warning's text, also appended to the demo banner in demo mode. */
export const AUTH_DISABLED_TEXT =
  'Authentication is disabled: anyone who can reach this address can see and change everything.'

/** Shown while the server runs with authentication disabled; dismissed for the browser session. */
export function AuthDisabledBanner({ active }: { active: boolean }) {
  return (
    <Banner
      active={active}
      tone="amber"
      icon={<ShieldOff className="size-4 shrink-0" aria-hidden />}
      dismissKey={AUTH_BANNER_DISMISSED_KEY}
      dismissLabel="Dismiss authentication warning"
    >
      {AUTH_DISABLED_TEXT}
    </Banner>
  )
}
