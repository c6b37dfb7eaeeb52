// The updater's pure parts: version order, feed parsing and release choice, checksum files, and
// how the installation kind is detected.
import { describe, expect, it } from 'vitest'
import { detectDeploymentType } from '../../../../src/server/updates/deployment.ts'
import {
  findDigest,
  parseFeed,
  pickArchive,
  pickChecksum,
  pickRelease,
} from '../../../../src/server/updates/feed.ts'
import { compareVersions, parseVersion } from '../../../../src/server/updates/semver.ts'

const v = (text: string) => {
  const parsed = parseVersion(text)
  if (!parsed) throw new Error(`bad version ${text}`)
  return parsed
}

describe('version order', () => {
  it('follows semver precedence, prereleases before their release, a leading v tolerated', () => {
    const ordered = [
      '0.9.9',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      'v1.0.0',
      '1.0.1',
      '1.2.0-rc.1',
      '1.2.0',
      '1.10.0',
      '2.0.0',
    ]
    for (let i = 0; i + 1 < ordered.length; i++) {
      expect(compareVersions(v(ordered[i]!), v(ordered[i + 1]!))).toBeLessThan(0)
      expect(compareVersions(v(ordered[i + 1]!), v(ordered[i]!))).toBeGreaterThan(0)
    }
    expect(compareVersions(v('v1.2.3'), v('1.2.3+build.5'))).toBe(0)
  })

  it('rejects what is not a version', () => {
    for (const text of ['', '1.2', 'v1.2.x', '01.2.3', 'latest', '1.2.3-']) {
      expect(parseVersion(text)).toBeNull()
    }
  })
})

const asset = (name: string) => ({
  name,
  browser_download_url: `http://127.0.0.1:9/download/${name}`,
  size: 10,
})
const release = (tag: string, extra: object = {}) => ({
  tag_name: tag,
  prerelease: false,
  draft: false,
  published_at: '2026-01-01T00:00:00Z',
  body: `notes ${tag}`,
  assets: [asset(`pulse-monitor-${tag.replace(/^v/, '')}.tar.gz`)],
  ...extra,
})

describe('release feed', () => {
  const feed = parseFeed([
    release('v1.1.0'),
    release('v1.3.0', { draft: true }),
    release('v1.2.0'),
    release('v1.2.5-rc.1', { prerelease: true }),
    release('v1.1.5'),
    { tag_name: 'v9.9.9' },
    'garbage',
    release('not-a-version'),
  ])

  it('skips drafts and malformed entries', () => {
    expect(feed.map((r) => r.versionText)).toEqual(['1.1.0', '1.2.0', '1.2.5-rc.1', '1.1.5'])
  })

  it('picks the highest version, not the first; stable skips prereleases, rc sees them', () => {
    expect(pickRelease(feed, 'stable')?.versionText).toBe('1.2.0')
    expect(pickRelease(feed, 'rc')?.versionText).toBe('1.2.5-rc.1')
    expect(pickRelease([], 'rc')).toBeNull()
  })

  it('refuses a feed that is not an array', () => {
    expect(() => parseFeed({ releases: [] })).toThrow(/not a JSON array/)
  })

  it('finds the archive and its checksum asset', () => {
    const [r] = parseFeed([
      release('v2.0.0', {
        assets: [
          asset('pulse-monitor-2.0.0.zip'),
          asset('pulse-monitor-2.0.0.tar.gz'),
          asset('other.tar.gz'),
          asset('SHA256SUMS'),
          asset('pulse-monitor-2.0.0.tar.gz.sha256'),
        ],
      }),
    ])
    const archive = pickArchive(r!)
    expect(archive?.name).toBe('pulse-monitor-2.0.0.tar.gz')
    expect(pickChecksum(r!, archive!)?.name).toBe('pulse-monitor-2.0.0.tar.gz.sha256')
    const [sumsOnly] = parseFeed([
      release('v2.0.0', { assets: [asset('pulse-monitor-2.0.0.tar.gz'), asset('checksums.txt')] }),
    ])
    expect(pickChecksum(sumsOnly!, pickArchive(sumsOnly!)!)?.name).toBe('checksums.txt')
  })

  it('reads digests from per-file and list checksum files', () => {
    const hex = 'ab'.repeat(32)
    const other = 'cd'.repeat(32)
    expect(findDigest(`${hex}\n`, 'a.tar.gz', true)).toBe(hex)
    expect(findDigest(`${hex.toUpperCase()}  a.tar.gz`, 'a.tar.gz', true)).toBe(hex)
    expect(findDigest(`${other}  b.tar.gz\n${hex} *a.tar.gz\n`, 'a.tar.gz', false)).toBe(hex)
    expect(findDigest(`${other}  b.tar.gz\n`, 'a.tar.gz', false)).toBeNull()
    expect(findDigest('not a digest  a.tar.gz', 'a.tar.gz', false)).toBeNull()
  })
})

describe('deployment type', () => {
  const probe = (env: NodeJS.ProcessEnv, existing: string[] = []) =>
    detectDeploymentType({ env, rootDir: '/opt/pulse', exists: (f) => existing.includes(f) })

  it('follows the documented order', () => {
    expect(probe({ PULSE_DEPLOYMENT_TYPE: 'ProxmoxVE' }, ['/.dockerenv'])).toBe('proxmoxve')
    // A git checkout inside a container is a development copy; an image has no .git.
    expect(probe({}, ['/.dockerenv', '/opt/pulse/.git'])).toBe('development')
    expect(probe({}, ['/.dockerenv'])).toBe('docker')
    expect(probe({ PULSE_DOCKER: 'true' })).toBe('docker')
    expect(probe({ INVOCATION_ID: 'x' }, ['/opt/pulse/.git'])).toBe('development')
    expect(probe({ INVOCATION_ID: 'abc' })).toBe('systemd')
    expect(probe({})).toBe('manual')
  })

  it('refuses an unknown declared type, naming the variable', () => {
    expect(() => probe({ PULSE_DEPLOYMENT_TYPE: 'kubernetes' })).toThrow(
      /PULSE_DEPLOYMENT_TYPE must be one of proxmoxve, docker, systemd, manual, development/,
    )
  })
})
