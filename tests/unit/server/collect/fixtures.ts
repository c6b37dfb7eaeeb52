// Reads the recorded Proxmox responses in tests/fixtures/proxmox/pve (copied from the project's
// shared fixtures; their sources are in tests/fixtures/proxmox/SOURCES.md).
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { unwrapData } from '../../../../src/server/collect/coerce.ts'

const repoRoot = path.resolve(import.meta.dirname, '../../../..')
const fixtureDir = path.resolve(repoRoot, 'tests/fixtures/proxmox/pve')

/** The `data` of a fixture, whether or not the source kept the envelope. */
export function readFixture(name: string): unknown {
  return unwrapData(JSON.parse(readFileSync(path.join(fixtureDir, name), 'utf8')))
}

/** A fixture that is a list of objects. */
export function readFixtureList(name: string): Array<Record<string, unknown>> {
  const data = readFixture(name)
  if (!Array.isArray(data)) throw new Error(`${name} is not a list`)
  return data as Array<Record<string, unknown>>
}
