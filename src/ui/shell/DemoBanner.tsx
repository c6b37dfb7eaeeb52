import { Info } from 'lucide-react'
import { Banner } from './Banner.tsx'

export const DEMO_DISMISSED_KEY = 'pulse.demoBannerDismissed'

/**
 * Read-only demo notice; dismissed for the rest of the browser session. The demo runs without
 * authentication, so it says so here instead of a second banner.
 */
export function DemoBanner({
  active,
  authDisabled = false,
}: {
  active: boolean
  authDisabled?: boolean
}) {
  return (
    <Banner
      active={active}
      tone="blue"
      icon={<Info className="size-4 shrink-0" aria-hidden />}
      dismissKey={DEMO_DISMISSED_KEY}
      dismissLabel="Dismiss demo banner"
    >
      Demo mode: you are watching a simulated Proxmox estate running on this machine.
      {authDisabled && ' Authentication is disabled, so anyone who can reach it can use it.'}
    </Banner>
  )
}
