// Guest operating systems as the QEMU guest agent reports them (get-osinfo), with the family
// that decides interface names, filesystems and memory behaviour.

/** One guest OS release, in get-osinfo's terms. */
export interface OsRelease {
  id: string
  name: string
  prettyName: string
  version: string
  versionId: string
  kernelRelease: string
  kernelVersion: string
  /** Windows only: `server` or `client`. */
  variant?: string
  family: 'debian' | 'ubuntu' | 'rhel' | 'windows'
}

const DEBIAN_12: OsRelease = {
  id: 'debian',
  name: 'Debian GNU/Linux',
  prettyName: 'Debian GNU/Linux 12 (bookworm)',
  version: '12 (bookworm)',
  versionId: '12',
  kernelRelease: '6.1.0-39-amd64',
  kernelVersion: '#1 SMP PREEMPT_DYNAMIC Debian 6.1.148-1 (2025-08-26)',
  family: 'debian',
}

const LINUX: readonly OsRelease[] = [
  DEBIAN_12,
  DEBIAN_12,
  {
    ...DEBIAN_12,
    prettyName: 'Debian GNU/Linux 13 (trixie)',
    version: '13 (trixie)',
    versionId: '13',
    kernelRelease: '6.12.48+deb13-amd64',
    kernelVersion: '#1 SMP PREEMPT_DYNAMIC Debian 6.12.48-1 (2025-09-20)',
  },
  {
    id: 'ubuntu',
    name: 'Ubuntu',
    prettyName: 'Ubuntu 24.04.3 LTS',
    version: '24.04.3 LTS (Noble Numbat)',
    versionId: '24.04',
    kernelRelease: '6.8.0-85-generic',
    kernelVersion: '#85-Ubuntu SMP PREEMPT_DYNAMIC Thu Sep 18 15:26:59 UTC 2025',
    family: 'ubuntu',
  },
  {
    id: 'ubuntu',
    name: 'Ubuntu',
    prettyName: 'Ubuntu 22.04.5 LTS',
    version: '22.04.5 LTS (Jammy Jellyfish)',
    versionId: '22.04',
    kernelRelease: '5.15.0-157-generic',
    kernelVersion: '#167-Ubuntu SMP Wed Sep 17 21:35:53 UTC 2025',
    family: 'ubuntu',
  },
  {
    id: 'rocky',
    name: 'Rocky Linux',
    prettyName: 'Rocky Linux 9.6 (Blue Onyx)',
    version: '9.6 (Blue Onyx)',
    versionId: '9.6',
    kernelRelease: '5.14.0-570.42.2.el9_6.x86_64',
    kernelVersion: '#1 SMP PREEMPT_DYNAMIC Fri Sep 12 10:03:02 UTC 2025',
    family: 'rhel',
  },
  {
    id: 'almalinux',
    name: 'AlmaLinux',
    prettyName: 'AlmaLinux 9.6 (Sage Margay)',
    version: '9.6 (Sage Margay)',
    versionId: '9.6',
    kernelRelease: '5.14.0-570.39.1.el9_6.x86_64',
    kernelVersion: '#1 SMP PREEMPT_DYNAMIC Thu Sep 4 05:08:52 EDT 2025',
    family: 'rhel',
  },
]

const WINDOWS_SERVER: readonly OsRelease[] = [
  {
    id: 'mswindows',
    name: 'Microsoft Windows',
    prettyName: 'Windows Server 2022 Standard',
    version: 'Microsoft Windows Server 2022',
    versionId: '2022',
    kernelRelease: '20348',
    kernelVersion: '10.0',
    variant: 'server',
    family: 'windows',
  },
  {
    id: 'mswindows',
    name: 'Microsoft Windows',
    prettyName: 'Windows Server 2019 Datacenter',
    version: 'Microsoft Windows Server 2019',
    versionId: '2019',
    kernelRelease: '17763',
    kernelVersion: '10.0',
    variant: 'server',
    family: 'windows',
  },
  {
    id: 'mswindows',
    name: 'Microsoft Windows',
    prettyName: 'Windows Server 2025 Standard',
    version: 'Microsoft Windows Server 2025',
    versionId: '2025',
    kernelRelease: '26100',
    kernelVersion: '10.0',
    variant: 'server',
    family: 'windows',
  },
]

/** True for guests whose name marks them as Windows (win-* roles, the Windows template). */
export function isWindowsName(name: string): boolean {
  return name.startsWith('win') || name.startsWith('tpl-win')
}

/**
 * Picks a guest's OS from a uniform draw `r`: Windows guests by name, a few more Windows servers
 * among the rest (~4%), otherwise a Linux mix led by Debian and Ubuntu.
 */
export function chooseOs(name: string, r: number): OsRelease {
  if (isWindowsName(name) || r < 0.04) {
    return WINDOWS_SERVER[Math.floor(r * 1000) % WINDOWS_SERVER.length] ?? WINDOWS_SERVER[0]!
  }
  const template = TEMPLATE_OS.find(([prefix]) => name.startsWith(prefix))
  if (template !== undefined) return template[1]
  return LINUX[Math.floor(((r - 0.04) / 0.96) * LINUX.length)] ?? DEBIAN_12
}

// Templates are named after what they contain.
const TEMPLATE_OS: readonly (readonly [string, OsRelease])[] = [
  ['tpl-debian-13', LINUX[2]!],
  ['tpl-debian', DEBIAN_12],
  ['tpl-ubuntu', LINUX[3]!],
  ['tpl-rocky', LINUX[5]!],
]
