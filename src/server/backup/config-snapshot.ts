// Every settings table as one plain object (secrets opened), and back. The snapshot is a list of
// section handlers, one per table or group of tables: adding a settings table is one entry in
// SECTIONS. Reading skips a section whose tables do not exist; writing replaces every section in
// one SQLite transaction, re-sealing secrets with this instance's key, so an error changes nothing.
import type { Db } from '../store/db.ts'
import { SECTIONS, type AnySection, type SnapshotContext } from './config-sections.ts'
import { snapshotDamaged } from './snapshot-errors.ts'

export {
  SECTIONS,
  rowTableSection,
  type SectionHandler,
  type SnapshotContext,
} from './config-sections.ts'

export const SNAPSHOT_VERSION = 1

/** The plaintext of an export: `version` plus one key per section. */
export type ConfigSnapshot = { version: typeof SNAPSHOT_VERSION } & Record<string, unknown>

function tableExists(db: Db, name: string): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !==
    undefined
  )
}

/** The sections whose tables exist in this database. */
export function presentSections(db: Db, sections: readonly AnySection[] = SECTIONS): AnySection[] {
  return sections.filter((s) => s.tables.every((table) => tableExists(db, table)))
}

/** Read every settings table (secrets opened) into one plain object. */
export function readSnapshot(
  ctx: SnapshotContext,
  sections: readonly AnySection[] = SECTIONS,
): ConfigSnapshot {
  const snapshot: ConfigSnapshot = { version: SNAPSHOT_VERSION }
  // One read transaction: a consistent picture even while a write happens elsewhere.
  ctx.db.transaction(() => {
    for (const s of presentSections(ctx.db, sections)) snapshot[s.key] = s.read(ctx)
  })()
  return snapshot
}

/**
 * Parse decrypted snapshot JSON strictly; IMPORT_DAMAGED (reason in `cause`) when it is not one.
 * Sections this instance does not know are ignored.
 */
export function parseSnapshot(
  json: string,
  sections: readonly AnySection[] = SECTIONS,
): ConfigSnapshot {
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (err) {
    throw snapshotDamaged('snapshot is not JSON', err)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw snapshotDamaged('snapshot is not an object')
  }
  const record = value as Record<string, unknown>
  if (record.version !== SNAPSHOT_VERSION) throw snapshotDamaged('unknown snapshot version')
  const snapshot: ConfigSnapshot = { version: SNAPSHOT_VERSION }
  for (const s of sections) {
    if (!(s.key in record)) {
      if (s.optional) continue
      throw snapshotDamaged(`section ${s.key} is missing`)
    }
    const result = s.schema.safeParse(record[s.key])
    if (!result.success) {
      const issue = result.error.issues[0]
      throw snapshotDamaged(
        `${[s.key, ...(issue?.path ?? [])].join('.')}: ${issue?.message ?? 'invalid'}`,
      )
    }
    snapshot[s.key] = result.data
  }
  return snapshot
}

/**
 * Replace every present section with the snapshot's, in one transaction; `alsoInTransaction`
 * runs inside it last (the caller revokes sessions there). A constraint failure is
 * IMPORT_DAMAGED; either way nothing is changed on error.
 */
export function writeSnapshot(
  ctx: SnapshotContext,
  snapshot: ConfigSnapshot,
  options: { sections?: readonly AnySection[]; alsoInTransaction?: () => void } = {},
): void {
  const sections = presentSections(ctx.db, options.sections ?? SECTIONS)
  try {
    ctx.db.transaction(() => {
      for (const s of sections) s.write(ctx, snapshot[s.key])
      options.alsoInTransaction?.()
    })()
  } catch (err) {
    if (isConstraintError(err)) throw snapshotDamaged('constraint failed', err)
    throw err
  }
}

/** A short summary of a snapshot for the audit log. */
export function describeSnapshot(
  snapshot: ConfigSnapshot,
  sections: readonly AnySection[] = SECTIONS,
): string {
  return sections
    .filter((s) => snapshot[s.key] !== undefined)
    .map((s) => s.describe(snapshot[s.key]))
    .join(', ')
}

function isConstraintError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT')
}
