// Backup search (spec 000 §5): plain terms over vmid, name, node, backupName, description,
// storage, datastore and namespace; `pbs:<instance>:<datastore>:<namespace>` scopes to a PBS
// datastore and namespace. Pure.
import type { BackupRecord, BackupScope } from './backups-types.ts'

/** A parsed search: lower-case plain terms (all must match) and `pbs:` scopes (all must hold). */
export interface BackupSearch {
  terms: string[]
  scopes: PbsTermScope[]
}

/** A `pbs:` term; a null datastore (term `pbs:<instance>`) means any datastore and namespace. */
export interface PbsTermScope {
  instance: string
  datastore: string | null
  namespace: string
}

/**
 * Parse the search text: whitespace separates terms, case is ignored. In a `pbs:` term an empty
 * or missing namespace means the root namespace; a term with only the instance matches all of it.
 */
export function parseBackupSearch(text: string): BackupSearch {
  const terms: string[] = []
  const scopes: PbsTermScope[] = []
  for (const raw of text.trim().toLowerCase().split(/\s+/)) {
    if (raw === '') continue
    if (raw.startsWith('pbs:') && raw.length > 4) {
      const [instance = '', datastore, ...rest] = raw.slice(4).split(':')
      scopes.push({
        instance,
        datastore: datastore === undefined || datastore === '' ? null : datastore,
        // Namespaces may not contain ':', but keep anything after it rather than drop it.
        namespace: stripSlashes(rest.join(':')),
      })
    } else terms.push(raw)
  }
  return { terms, scopes }
}

/** '/a/b/' → 'a/b': the root namespace is '' however it is written. */
function stripSlashes(namespace: string): string {
  return namespace.replace(/^\/+|\/+$/g, '')
}

/** Does a record lie in a `pbs:` scope? Only PBS (remote) records can. */
export function inPbsScope(record: BackupRecord, scope: PbsTermScope): boolean {
  if (record.backupType !== 'remote') return false
  if (record.instance.toLowerCase() !== scope.instance) return false
  if (scope.datastore === null) return true
  return (
    record.datastore.toLowerCase() === scope.datastore &&
    stripSlashes(record.namespace.toLowerCase()) === scope.namespace
  )
}

/** Does a record lie in the selector's scope (exact names as listed by the PBS)? */
export function inSelectorScope(record: BackupRecord, scope: BackupScope): boolean {
  return (
    record.backupType === 'remote' &&
    record.instance === scope.instance &&
    record.datastore === scope.datastore &&
    record.namespace === scope.namespace
  )
}

/** The `pbs:` term that selects a scope (spec 000 §5 form). */
export function formatPbsTerm(scope: BackupScope): string {
  return `pbs:${scope.instance}:${scope.datastore}:${scope.namespace}`
}

/** Does `haystack` (see backups-normalize) contain every plain term? */
export function matchesTerms(haystack: string, terms: readonly string[]): boolean {
  for (const term of terms) if (!haystack.includes(term)) return false
  return true
}
