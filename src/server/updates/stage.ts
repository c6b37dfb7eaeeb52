// Staging a verified release archive: listed first (regular files and directories only, no
// absolute paths, no '..'), extracted by the system tar into a scratch directory beside the
// target, then renamed into `<dataDir>/updates/staged/<version>/` in one step, so a half-extracted
// release is never found there.
import { execFile, spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
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

/**
 * What a release may hold once extracted: 1 GiB in 100,000 entries (a release is tens of MiB in a
 * few thousand files). A small archive can expand to far more (a gzip of zeros shrinks ~1000:1),
 * so the listing is checked before anything is written.
 */
export const STAGE_LIMITS = { maxBytes: 1024 ** 3, maxEntries: 100_000 }

// GNU tar's verbose listing with numeric owners: `<mode> <uid>/<gid> <size> <date> <time> <name>`
// (names with odd characters come escaped, as in the plain listing).
const LISTING_LINE = /^(\S{10})\s+\d+\/\d+\s+(\d+)\s+\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)? (.+)$/

/** Why one listed entry may not be extracted, or null. */
function entryProblem(mode: string, name: string): string | null {
  if (name.startsWith('/')) return `the archive holds an absolute path (${name})`
  if (name.split('/').includes('..')) return `the archive holds a path with '..' (${name})`
  // Links could point outside the staging directory: only plain files and directories ship.
  if (!/^[-d]/.test(mode)) {
    return `the archive holds something other than files and directories (${mode} ${name})`
  }
  return null
}

/**
 * Why the archive may not be extracted, or null when every entry is a safe file or directory and
 * the whole stays within `limits`. The listing is read as it streams and tar is stopped at the
 * first problem, so a bomb is refused without being expanded onto the disk.
 */
export async function inspectArchive(
  archive: string,
  limits: typeof STAGE_LIMITS = STAGE_LIMITS,
): Promise<string | null> {
  const tar = spawn('tar', ['-tvzf', archive, '--numeric-owner'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: TAR_OPTIONS.timeout,
  })
  let stderr = ''
  tar.stderr.setEncoding('utf8').on('data', (text: string) => {
    if (stderr.length < 4096) stderr += text
  })
  const exited = new Promise<number | null>((resolve, reject) => {
    tar.once('error', reject)
    tar.once('close', (code) => resolve(code))
  })
  let entries = 0
  let bytes = 0
  let problem: string | null = null
  for await (const line of readline.createInterface({ input: tar.stdout, crlfDelay: Infinity })) {
    if (!line) continue
    const m = LISTING_LINE.exec(line)
    entries += 1
    bytes += m ? Number(m[2]) : 0
    if (!m) problem = `the archive listing cannot be read (${line.slice(0, 200)})`
    else problem = entryProblem(m[1]!, m[3]!)
    if (!problem && entries > limits.maxEntries) {
      problem = `the archive holds more than ${limits.maxEntries} entries`
    }
    if (!problem && bytes > limits.maxBytes) {
      problem = `the archive expands to more than ${formatLimit(limits.maxBytes)}`
    }
    if (problem) break
  }
  if (problem) {
    tar.kill()
    await exited.catch(() => null)
    return problem
  }
  const code = await exited
  if (code !== 0)
    throw new Error(`tar could not list the archive: ${stderr.trim() || `exit ${code}`}`)
  return entries === 0 ? 'the archive is empty' : null
}

const formatLimit = (bytes: number) =>
  bytes % 1024 ** 3 === 0 ? `${bytes / 1024 ** 3} GiB` : `${bytes} bytes`

/** Extract a checked archive and move it to its staged directory; returns that directory. */
export async function stageArchive(
  archive: string,
  dataDir: string,
  version: string,
  limits: typeof STAGE_LIMITS = STAGE_LIMITS,
): Promise<string> {
  const problem = await inspectArchive(archive, limits)
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
