// Issue 24 item 38: `npm ci` printed EBADENGINE on Node 20 although package.json promises it. npm
// warns when the running Node does not satisfy a package's `engines.node` (npm-install-checks:
// semver.satisfies(node, range, { includePrerelease: true })), so every package in the lock must
// admit the lowest version of each Node line our own `engines` range promises.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../../..')
const readJson = (file: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'))

interface LockEntry {
  version?: string
  engines?: unknown
}

const manifest = readJson('package.json') as { engines: { node: string } }
const lock = readJson('package-lock.json') as { packages: Record<string, LockEntry> }

/** The lowest version of each Node line the range admits: '^20.19.0 || >=24' → 20.19.0, 24.0.0. */
function floors(range: string): string[] {
  return range.split('||').map((part) => semver.minVersion(part.trim())!.version)
}

describe('Node engines of the locked packages', () => {
  const promised = floors(manifest.engines.node)

  it('reads the floors of our own engines range', () => {
    expect(promised).toEqual(['20.19.0', '22.13.0', '24.0.0'])
  })

  it('admit every Node line package.json promises (no EBADENGINE from npm ci)', () => {
    const refused: string[] = []
    for (const [where, entry] of Object.entries(lock.packages)) {
      if (where === '') continue
      const engines = entry.engines
      // Old manifests wrote engines as an array of strings; npm ignores those.
      if (!engines || typeof engines !== 'object' || Array.isArray(engines)) continue
      const range = (engines as { node?: unknown }).node
      if (typeof range !== 'string') continue
      for (const node of promised) {
        if (!semver.satisfies(node, range, { includePrerelease: true })) {
          refused.push(`${where}@${entry.version ?? '?'} wants node ${range}, not ${node}`)
        }
      }
    }
    expect(refused).toEqual([])
  })
})

describe('the test-only OpenID provider', () => {
  it('supports the running Node (no "Unsupported runtime" notice on import)', () => {
    // oidc-provider declares no engines; it checks the runtime when imported and warns on stderr.
    const run = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "await import('oidc-provider')"],
      { cwd: root, encoding: 'utf8' },
    )
    expect(run.status).toBe(0)
    expect(`${run.stdout}${run.stderr}`).toBe('')
  })
})
