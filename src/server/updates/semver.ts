// Release version comparison: semantic versions with prereleases (1.2.0-rc.1 < 1.2.0), a leading
// 'v' tolerated as in GitHub tag names. Build metadata (+...) is ignored, as semver says.

export interface Version {
  major: number
  minor: number
  patch: number
  /** Dot-separated prerelease identifiers; empty for a release. */
  pre: string[]
}

const PATTERN =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/

/** Parse 'v1.2.3-rc.1'; null when the text is not a semantic version. */
export function parseVersion(text: string): Version | null {
  const m = PATTERN.exec(text.trim())
  if (!m) return null
  return {
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    pre: m[4] ? m[4].split('.') : [],
  }
}

/** The version without a leading 'v' or build metadata. */
export function formatVersion(v: Version): string {
  const core = `${v.major}.${v.minor}.${v.patch}`
  return v.pre.length ? `${core}-${v.pre.join('.')}` : core
}

function compareIdentifiers(a: string, b: string): number {
  const an = /^\d+$/.test(a)
  const bn = /^\d+$/.test(b)
  if (an && bn) return Math.sign(Number(a) - Number(b))
  // Numeric identifiers sort before alphanumeric ones.
  if (an) return -1
  if (bn) return 1
  return a < b ? -1 : a > b ? 1 : 0
}

/** Negative when a < b, 0 when equal, positive when a > b (semver precedence). */
export function compareVersions(a: Version, b: Version): number {
  for (const key of ['major', 'minor', 'patch'] as const) {
    if (a[key] !== b[key]) return Math.sign(a[key] - b[key])
  }
  // A release outranks any of its prereleases.
  if (a.pre.length === 0 && b.pre.length === 0) return 0
  if (a.pre.length === 0) return 1
  if (b.pre.length === 0) return -1
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const c = compareIdentifiers(a.pre[i]!, b.pre[i]!)
    if (c !== 0) return c
  }
  return Math.sign(a.pre.length - b.pre.length)
}
