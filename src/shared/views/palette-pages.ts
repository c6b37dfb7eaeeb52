// The palette's fixed entries: every page of the app (spec 001 §2 routes), the settings people
// look for by name (where they live), and the actions. Matched by label, then by keywords.
import { buildMatchField } from './palette-match.ts'
import type { PaletteSource } from './palette.ts'
import type { PaletteAction, PaletteKind } from './palette-types.ts'

/** A fixed entry: where it goes (or what it does) and the words it is also found by. */
export interface PaletteEntry {
  label: string
  detail: string
  href: string
  keywords: string
  action?: PaletteAction
}

/** Every route of the app, in the tab bar's order. */
export const PALETTE_PAGES: readonly PaletteEntry[] = [
  { label: 'Main', detail: '/', href: '/', keywords: 'dashboard guests vms containers home' },
  { label: 'Storage', detail: '/storage', href: '/storage', keywords: 'pools disks ceph zfs' },
  { label: 'Backups', detail: '/backups', href: '/backups', keywords: 'snapshots pbs' },
  {
    label: 'Backup coverage',
    detail: '/backups/coverage',
    href: '/backups/coverage',
    keywords: 'not backed up unprotected',
  },
  {
    label: 'Backup jobs',
    detail: '/backups/jobs',
    href: '/backups/jobs',
    keywords: 'sync verify prune gc',
  },
  {
    label: 'Alerts overview',
    detail: '/alerts/overview',
    href: '/alerts/overview',
    keywords: 'active alerts acknowledge silences',
  },
  {
    label: 'Alert thresholds',
    detail: '/alerts/thresholds',
    href: '/alerts/thresholds',
    keywords: 'limits cpu memory disk overrides',
  },
  {
    label: 'Notifications',
    detail: '/alerts/destinations',
    href: '/alerts/destinations',
    keywords: 'destinations email webhooks',
  },
  {
    label: 'Alert schedule',
    detail: '/alerts/schedule',
    href: '/alerts/schedule',
    keywords: 'quiet hours cooldown grouping',
  },
  {
    label: 'Alert history',
    detail: '/alerts/history',
    href: '/alerts/history',
    keywords: 'past resolved',
  },
  {
    label: 'Custom alert rules',
    detail: '/alerts/custom-rules',
    href: '/alerts/custom-rules',
    keywords: 'rules',
  },
  {
    label: 'PVE nodes',
    detail: '/settings/pve',
    href: '/settings/pve',
    keywords: 'settings proxmox ve',
  },
  {
    label: 'PBS nodes',
    detail: '/settings/pbs',
    href: '/settings/pbs',
    keywords: 'settings backup server',
  },
  {
    label: 'System settings',
    detail: '/settings/system',
    href: '/settings/system',
    keywords: 'system',
  },
  {
    label: 'Guest URLs',
    detail: '/settings/urls',
    href: '/settings/urls',
    keywords: 'settings links',
  },
  {
    label: 'Security',
    detail: '/settings/security',
    href: '/settings/security',
    keywords: 'settings auth',
  },
  {
    label: 'Diagnostics',
    detail: '/settings/diagnostics',
    href: '/settings/diagnostics',
    keywords: 'settings support',
  },
]

/** Settings found by what they are called, on the page that holds them. */
export const PALETTE_SETTINGS: readonly PaletteEntry[] = [
  {
    label: 'Quiet hours',
    detail: 'Alert schedule',
    href: '/alerts/schedule',
    keywords: 'mute night',
  },
  {
    label: 'Cooldown and grouping',
    detail: 'Alert schedule',
    href: '/alerts/schedule',
    keywords: 'flapping',
  },
  {
    label: 'Silences',
    detail: 'Alerts overview',
    href: '/alerts/overview',
    keywords: 'maintenance mute',
  },
  {
    label: 'Webhooks',
    detail: 'Notifications',
    href: '/alerts/destinations',
    keywords: 'slack discord teams',
  },
  {
    label: 'Email (SMTP)',
    detail: 'Notifications',
    href: '/alerts/destinations',
    keywords: 'mail',
  },
  { label: 'API token', detail: 'Security', href: '/settings/security', keywords: 'key' },
  { label: 'Change password', detail: 'Security', href: '/settings/security', keywords: 'login' },
  {
    label: 'Single sign-on (OIDC)',
    detail: 'Security',
    href: '/settings/security',
    keywords: 'sso openid',
  },
  {
    label: 'Proxy authentication',
    detail: 'Security',
    href: '/settings/security',
    keywords: 'header',
  },
  { label: 'Audit log', detail: 'Security', href: '/settings/security', keywords: 'events' },
  { label: 'Account lockout', detail: 'Security', href: '/settings/security', keywords: 'locked' },
  {
    label: 'Export or restore configuration',
    detail: 'System settings',
    href: '/settings/system',
    keywords: 'backup import',
  },
  {
    label: 'Allowed origins',
    detail: 'System settings',
    href: '/settings/system',
    keywords: 'cors',
  },
  { label: 'Embedding', detail: 'System settings', href: '/settings/system', keywords: 'iframe' },
  {
    label: 'Network discovery',
    detail: 'System settings',
    href: '/settings/system',
    keywords: 'scan',
  },
  {
    label: 'Updates',
    detail: 'System settings',
    href: '/settings/system',
    keywords: 'version upgrade',
  },
  {
    label: 'Metrics history',
    detail: 'System settings',
    href: '/settings/system',
    keywords: 'retention',
  },
  { label: 'Add a PVE node', detail: 'PVE nodes', href: '/settings/pve', keywords: 'cluster new' },
  {
    label: 'Add a PBS node',
    detail: 'PBS nodes',
    href: '/settings/pbs',
    keywords: 'backup server new',
  },
  {
    label: 'Support bundle',
    detail: 'Diagnostics',
    href: '/settings/diagnostics',
    keywords: 'debug',
  },
]

/** Actions; the wall view's entry depends on whether it is on. */
export function paletteActions(wallView: boolean): readonly PaletteEntry[] {
  return [
    wallView
      ? {
          label: 'Exit wall view',
          detail: 'Header, tabs and banners back',
          href: '',
          keywords: 'kiosk leave',
          action: 'exit-wall-view',
        }
      : {
          label: 'Wall view',
          detail: 'The live tab full screen, larger type',
          href: '',
          keywords: 'kiosk tv display fullscreen',
          action: 'wall-view',
        },
    {
      label: 'Keyboard shortcuts',
      detail: 'Press ?',
      href: '',
      keywords: 'keys help',
      action: 'shortcuts',
    },
    {
      label: 'Toggle dark mode',
      detail: 'Theme',
      href: '',
      keywords: 'theme light',
      action: 'theme',
    },
  ]
}

/**
 * A source over fixed entries: found by label, then by detail and keywords; `browse` lists them
 * all for an empty query (the pages and actions, not the long list of settings).
 */
export function createEntrySource(
  kind: PaletteKind,
  entries: readonly PaletteEntry[],
  browse: boolean,
): PaletteSource {
  return {
    kind,
    browse,
    names: buildMatchField(entries.map((entry) => entry.label)),
    also: {
      field: buildMatchField(entries.map((entry) => `${entry.detail} ${entry.keywords}`)),
      of: null,
    },
    toItem(index) {
      const entry = entries[index]!
      return {
        kind,
        key: `${kind}:${entry.action ?? entry.label}`,
        label: entry.label,
        detail: entry.detail,
        href: entry.href,
        ...(entry.action ? { action: entry.action } : {}),
      }
    },
  }
}
