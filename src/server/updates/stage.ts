// Staging a verified release archive: listed first (regular files and directories only, no
// absolute paths, no '..'), extracted by the system tar into a scratch directory beside the
// target, then renamed into `<dataDir>/updates/staged/<version>/` in one step, so a half-extracted
// release is never found there.
import { execFile } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const TAR_OPTIONS = { maxBuffer: 16 * 1024 * 1024, timeout: 120_000 }

/** The updater's working directory. */
export const updatesDir = (dataDir: string): string => path.join(dataDir, 'updates')

/** Where a staged release lives. */
export const stagedDir = (dataDir: string, version: string): string =>
  path.join(updatesDir(dataDir), 'staged', version)

/** A fresh, unused name inside the updates directory. */
export function scratchPath(dataDir: string, prefix: string): string {
  fs.mkdirSync(updatesDir(dataDir), { recursive: true, mode: 0o700 })
  return path.join(updatesDir(dataDir), `.${prefix}-${randomBytes(6).toString('hex')}`)
}

/** Hex SHA-256 of a file, streamed. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** Why the archive may not be extracted, or null when every entry is a safe file or directory. */
export async function inspectArchive(archive: string): Promise<string | null> {
  const names = (await run('tar', ['-tzf', archive], TAR_OPTIONS)).stdout
    .split('\n')
    .filter(Boolean)
  const long = (await run('tar', ['-tvzf', archive], TAR_OPTIONS)).stdout
    .split('\n')
    .filter(Boolean)
  if (names.length === 0) return 'the archive is empty'
  for (const name of names) {
    if (name.startsWith('/')) return `the archive holds an absolute path (${name})`
    if (name.split('/').includes('..')) return `the archive holds a path with '..' (${name})`
  }
  // Links could point outside the staging directory: only plain files and directories ship.
  const odd = long.find((line) => !/^[-d]/.test(line))
  if (odd) return `the archive holds something other than files and directories (${odd.trim()})`
  return null
}

/** Extract a checked archive and move it to its staged directory; returns that directory. */
export async function stageArchive(
  archive: string,
  dataDir: string,
  version: string,
): Promise<string> {
  const problem = await inspectArchive(archive)
  if (problem) throw new Error(problem)
  const scratch = scratchPath(dataDir, 'extract')
  fs.mkdirSync(scratch, { mode: 0o700 })
  try {
    await run(
      'tar',
      ['-xzf', archive, '-C', scratch, '--no-same-owner', '--no-same-permissions'],
      TAR_OPTIONS,
    )
    const target = stagedDir(dataDir, version)
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 })
    // Staging the same version again replaces the earlier copy.
    fs.rmSync(target, { recursive: true, force: true })
    fs.renameSync(scratch, target)
    return target
  } catch (err) {
    fs.rmSync(scratch, { recursive: true, force: true })
    throw err
  }
}
