// Guest metadata in SQLite (spec 000 §3 "Guest metadata"): one row per guest key the client uses.
import type { Db } from './db.ts'

/** A guest's metadata as the API serves it (reference/wire-protocol.md §3.5 shape). */
export interface GuestMetadata {
  id: string
  /** An http(s) URL, or '' for none. */
  customUrl: string
  description: string
  tags: string[]
}

/** Fields a save may change; absent fields keep their stored value. */
export type GuestMetadataPatch = Partial<Omit<GuestMetadata, 'id'>>

interface Row {
  guest_id: string
  custom_url: string
  description: string
  tags: string
  updated_at: number
  absent_since: number | null
}

/** A stored record's id and when its guest was first found missing (null: not missing). */
export interface MetadataPresence {
  id: string
  absentSince: number | null
}

export interface MetadataRepo {
  /** Every stored record, keyed by guest id. */
  all(): Record<string, GuestMetadata>
  get(id: string): GuestMetadata | undefined
  /** Merge `patch` into the stored record (or an empty one) and save it; returns the result. */
  save(id: string, patch: GuestMetadataPatch, now: number): GuestMetadata
  /** True when a record was removed. */
  remove(id: string): boolean
  /** Save every patch in one transaction: all of them or, when one throws, none. */
  saveMany(patches: ReadonlyMap<string, GuestMetadataPatch>, now: number): GuestMetadata[]
  /** Every stored id. */
  ids(): string[]
  /** Up to `limit` stored ids after `after` in id order, with their absence marks. */
  presencePage(after: string, limit: number): MetadataPresence[]
  /** In one transaction: mark `missing` absent since `at`, unmark `back`, delete `expired`. */
  applyPresence(change: { missing: string[]; back: string[]; expired: string[] }, at: number): void
}

/** The record of a guest without stored metadata. */
export function emptyMetadata(id: string): GuestMetadata {
  return { id, customUrl: '', description: '', tags: [] }
}

/** Repository over the `guest_metadata` table. */
export function createMetadataRepo(db: Db): MetadataRepo {
  const selectAll = db.prepare('SELECT * FROM guest_metadata ORDER BY guest_id')
  const selectOne = db.prepare('SELECT * FROM guest_metadata WHERE guest_id = ?')
  const upsert = db.prepare(`INSERT INTO guest_metadata (guest_id, custom_url, description, tags,
    updated_at) VALUES (@id, @customUrl, @description, @tags, @now)
    ON CONFLICT (guest_id) DO UPDATE SET custom_url = excluded.custom_url,
    description = excluded.description, tags = excluded.tags, updated_at = excluded.updated_at`)
  const deleteStmt = db.prepare('DELETE FROM guest_metadata WHERE guest_id = ?')
  const selectIds = db.prepare('SELECT guest_id FROM guest_metadata').pluck()
  const selectPage = db
    .prepare(
      `SELECT guest_id, absent_since FROM guest_metadata WHERE guest_id > ?
      ORDER BY guest_id LIMIT ?`,
    )
    .raw()
  const markStmt = db.prepare('UPDATE guest_metadata SET absent_since = ? WHERE guest_id = ?')

  const get = (id: string) => {
    const row = selectOne.get(id) as Row | undefined
    return row && toMetadata(row)
  }
  const save = db.transaction((id: string, patch: GuestMetadataPatch, now: number) => {
    const next = { ...(get(id) ?? emptyMetadata(id)), ...definedOnly(patch), id }
    // A record with nothing left in it is removed rather than kept as an empty row.
    if (!next.customUrl && !next.description && next.tags.length === 0) deleteStmt.run(id)
    else upsert.run({ ...next, tags: JSON.stringify(next.tags), now })
    return next
  })
  return {
    all() {
      const out: Record<string, GuestMetadata> = {}
      for (const row of selectAll.all() as Row[]) out[row.guest_id] = toMetadata(row)
      return out
    },
    get,
    save,
    remove: (id) => deleteStmt.run(id).changes > 0,
    // Nested transactions become savepoints: the outer one makes the batch all or nothing.
    saveMany: db.transaction((patches: ReadonlyMap<string, GuestMetadataPatch>, now: number) =>
      Array.from(patches, ([id, patch]) => save(id, patch, now)),
    ),
    ids: () => selectIds.all() as string[],
    presencePage: (after, limit) =>
      (selectPage.all(after, limit) as Array<[string, number | null]>).map(([id, absentSince]) => ({
        id,
        absentSince,
      })),
    applyPresence: db.transaction(
      (change: { missing: string[]; back: string[]; expired: string[] }, at: number) => {
        for (const id of change.missing) markStmt.run(at, id)
        for (const id of change.back) markStmt.run(null, id)
        for (const id of change.expired) deleteStmt.run(id)
      },
    ),
  }
}

function toMetadata(row: Row): GuestMetadata {
  return {
    id: row.guest_id,
    customUrl: row.custom_url,
    description: row.description,
    tags: parseTags(row.tags),
  }
}

function parseTags(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === 'string') : []
  } catch {
    return []
  }
}

function definedOnly(patch: GuestMetadataPatch): GuestMetadataPatch {
  const out: GuestMetadataPatch = {}
  if (patch.customUrl !== undefined) out.customUrl = patch.customUrl
  if (patch.description !== undefined) out.description = patch.description
  if (patch.tags !== undefined) out.tags = patch.tags
  return out
}
