// Pure mappers for PBS content answers: /admin/datastore/{store}/namespace and .../snapshots
// (reference/proxmox-api.md §3.4-3.5). Snapshot entries become PbsBackup wire records.
import type { PbsBackup, PbsNamespace } from '../../shared/model/state.ts'
import { isRecord, toBool, toNumber, toOptionalNumber, toOptionalString } from './coerce.ts'
import { flatId, NO_INTERN, type Interner } from './intern.ts'

const BACKUP_TYPES = ['vm', 'ct', 'host'] as const
type BackupType = (typeof BACKUP_TYPES)[number]

/** Where a snapshot list comes from. */
export interface SnapshotSource {
  /** Configured instance name. */
  instance: string
  datastore: string
  /** '' for the root namespace. */
  namespace: string
}

/** The namespace tree from a namespace answer ({ns, comment?} entries; '' is the root). */
export function toPbsNamespaces(data: unknown): PbsNamespace[] {
  if (!Array.isArray(data)) return []
  const seen = new Set<string>()
  const out: PbsNamespace[] = []
  for (const entry of data) {
    if (!isRecord(entry)) continue
    // The root arrives as "" (toOptionalString would drop it).
    const path = typeof entry.ns === 'string' ? entry.ns : undefined
    if (path === undefined || seen.has(path)) continue
    seen.add(path)
    out.push(toPbsNamespace(path))
  }
  return out
}

/** Path, parent and depth of one namespace path. */
export function toPbsNamespace(path: string): PbsNamespace {
  if (path === '') return { path, depth: 0 }
  const parts = path.split('/')
  return { path, parent: parts.slice(0, -1).join('/'), depth: parts.length }
}

/**
 * Backups from a snapshots answer; entries without a known type, id or time are skipped. The
 * interner shares the strings and file lists that many snapshots repeat (intern.ts).
 */
export function toPbsBackups(
  data: unknown,
  source: SnapshotSource,
  intern: Interner = NO_INTERN,
): PbsBackup[] {
  if (!Array.isArray(data)) return []
  const out: PbsBackup[] = []
  for (const entry of data) {
    const backup = toPbsBackup(entry, source, intern)
    if (backup !== undefined) out.push(backup)
  }
  return out
}

/** One snapshot entry as a PbsBackup. */
export function toPbsBackup(
  entry: unknown,
  source: SnapshotSource,
  intern: Interner = NO_INTERN,
): PbsBackup | undefined {
  if (!isRecord(entry)) return undefined
  const type = entry['backup-type']
  const vmid = intern.string(toOptionalString(entry['backup-id']))
  const time = toOptionalNumber(entry['backup-time'])
  if (!isBackupType(type) || vmid === undefined || time === undefined) return undefined
  const files = readFiles(entry.files)
  const verification = intern.string(
    isRecord(entry.verification) ? toOptionalString(entry.verification.state) : undefined,
  )
  const comment = intern.string(toOptionalString(entry.comment))
  const owner = intern.string(toOptionalString(entry.owner))
  return {
    id: flatId(source.instance, source.datastore, source.namespace, type, vmid, time),
    instance: source.instance,
    datastore: source.datastore,
    namespace: source.namespace,
    backupType: type,
    vmid,
    backupTime: time,
    // `size` is optional in SnapshotListItem; the files' sizes add up to the same figure.
    size: toOptionalNumber(entry.size) ?? files.reduce((sum, f) => sum + f.size, 0),
    protected: toBool(entry.protected),
    verified: verification === 'ok',
    ...(verification !== undefined ? { verification } : {}),
    encrypted: files.some((f) => f.cryptMode === 'encrypt'),
    ...(comment !== undefined ? { comment } : {}),
    ...(owner !== undefined ? { owner } : {}),
    files: intern.list(files.map((f) => f.name)),
  }
}

function isBackupType(value: unknown): value is BackupType {
  return typeof value === 'string' && (BACKUP_TYPES as readonly string[]).includes(value)
}

interface FileInfo {
  name: string
  size: number
  cryptMode?: string
}

// Snapshot files are {filename, size?, crypt-mode?} objects; files that are not in the manifest
// come without size or crypt mode. Group answers list plain names: accept those too.
function readFiles(value: unknown): FileInfo[] {
  if (!Array.isArray(value)) return []
  const out: FileInfo[] = []
  for (const file of value) {
    if (typeof file === 'string') {
      if (file !== '') out.push({ name: file, size: 0 })
      continue
    }
    if (!isRecord(file)) continue
    const name = toOptionalString(file.filename)
    if (name === undefined) continue
    const cryptMode = toOptionalString(file['crypt-mode'])
    out.push({ name, size: toNumber(file.size), ...(cryptMode ? { cryptMode } : {}) })
  }
  return out
}
