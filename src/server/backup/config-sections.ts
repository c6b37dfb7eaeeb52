// The settings sections of a config snapshot: one handler per table or group of tables. Adding
// a settings table is one entry in SECTIONS. config-snapshot.ts reads and writes them.
import { z } from 'zod'
import { NODE_TYPES } from '../../shared/model/node-config.ts'
import { isHttpUrl } from '../parse-body.ts'
import { createAuthSettingsRepo, type AuthSettings } from '../store/auth-settings-repo.ts'
import type { Db } from '../store/db.ts'
import { createNodesRepo, type StoredNode } from '../store/nodes-repo.ts'
import type { SecretBox } from '../store/secret-box.ts'
import { NOTIFY_SECTIONS } from './config-notify-sections.ts'
import { TOKEN_SECTIONS } from './config-token-sections.ts'
import { snapshotDamaged } from './snapshot-errors.ts'
import { USER_SECTIONS } from './config-user-sections.ts'

const MAX_ROWS = 100_000

export interface SnapshotContext {
  db: Db
  /** This instance's secret box: opens secrets on export, seals them on import. */
  box: SecretBox
  now: number
}

export interface SectionHandler<T> {
  /** The section's key in the snapshot. */
  key: string
  /** Tables it reads and writes; the section is left out while one of them does not exist. */
  tables: readonly string[]
  /** What a file may hold for it (strict). */
  schema: z.ZodType<T>
  /** Absent from a file: fine (the tables are then emptied); otherwise the file is damaged. */
  optional?: boolean
  read(ctx: SnapshotContext): T
  /** Replace what is stored by `value` (undefined: the file has no such section). */
  write(ctx: SnapshotContext, value: T | undefined): void
  /** A few words for the audit log, e.g. '3 nodes'. */
  describe(value: T): string
}

/** A section handler of any value type. */
export type AnySection = SectionHandler<unknown>
const section = <T>(handler: SectionHandler<T>): AnySection => handler as unknown as AnySection

const text = (max: number) => z.string().max(max)
const nullableText = (max: number) => text(max).nullable()
const time = z.number().int().min(0)
const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'must be an http(s) URL')

/** Rows unique by a key (case-insensitive when asked), as the table's constraints demand. */
function uniqueBy<T>(pick: (row: T) => string, what: string, fold = false) {
  return (rows: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>()
    rows.forEach((row, index) => {
      const key = fold ? pick(row).toLowerCase() : pick(row)
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', message: `duplicate ${what}`, path: [index] })
      seen.add(key)
    })
  }
}

// Nodes: StoredNode with the token and password opened.
const nodeSchema: z.ZodType<StoredNode> = z.strictObject({
  id: z.string().min(1).max(200),
  type: z.enum(NODE_TYPES),
  name: z.string().min(1).max(200),
  host: httpUrl,
  user: nullableText(200),
  tokenName: nullableText(400),
  tokenValue: nullableText(4096),
  password: nullableText(4096),
  fingerprint: nullableText(400),
  verifySSL: z.boolean(),
  monitorVMs: z.boolean(),
  monitorContainers: z.boolean(),
  monitorStorage: z.boolean(),
  monitorBackups: z.boolean(),
  source: z.string().min(1).max(40),
  createdAt: time,
  updatedAt: time,
})

const nodesSection = section<StoredNode[]>({
  key: 'nodes',
  tables: ['nodes'],
  schema: z
    .array(nodeSchema)
    .max(MAX_ROWS)
    .superRefine(uniqueBy((n) => n.id, 'id'))
    .superRefine(uniqueBy((n) => n.name, 'name', true)),
  read: ({ db, box }) => createNodesRepo(db, box).list(),
  write({ db, box }, nodes = []) {
    const seal = (plain: string | null) => (plain ? box.encrypt(plain) : null)
    const insert = db.prepare(`INSERT INTO nodes (id, type, name, host, user, token_name,
      token_value_enc, password_enc, fingerprint, verify_ssl, monitor_vms, monitor_containers,
      monitor_storage, monitor_backups, source, created_at, updated_at) VALUES (@id, @type, @name,
      @host, @user, @tokenName, @tokenValueEnc, @passwordEnc, @fingerprint, @verifySSL,
      @monitorVMs, @monitorContainers, @monitorStorage, @monitorBackups, @source, @createdAt,
      @updatedAt)`)
    db.prepare('DELETE FROM nodes').run()
    for (const node of nodes) {
      insert.run({
        id: node.id,
        type: node.type,
        name: node.name,
        host: node.host,
        user: node.user,
        tokenName: node.tokenName,
        tokenValueEnc: seal(node.tokenValue),
        passwordEnc: seal(node.password),
        fingerprint: node.fingerprint,
        verifySSL: node.verifySSL ? 1 : 0,
        monitorVMs: node.monitorVMs ? 1 : 0,
        monitorContainers: node.monitorContainers ? 1 : 0,
        monitorStorage: node.monitorStorage ? 1 : 0,
        monitorBackups: node.monitorBackups ? 1 : 0,
        source: node.source,
        createdAt: node.createdAt,
        updatedAt: node.updatedAt,
      })
    }
  },
  describe: (nodes) => `${nodes.length} node(s)`,
})

// Guest metadata: one record per guest key.
interface GuestMetadataRecord {
  id: string
  customUrl: string
  description: string
  tags: string[]
  updatedAt: number
}

const metadataSchema: z.ZodType<GuestMetadataRecord> = z.strictObject({
  id: z.string().min(1).max(400),
  customUrl: z
    .string()
    .max(2048)
    .refine((v) => v === '' || isHttpUrl(v), 'must be an http(s) URL'),
  description: text(10_000),
  tags: z.array(text(200)).max(100),
  updatedAt: time,
})

const guestMetadataSection = section<GuestMetadataRecord[]>({
  key: 'guestMetadata',
  tables: ['guest_metadata'],
  schema: z
    .array(metadataSchema)
    .max(MAX_ROWS)
    .superRefine(uniqueBy((m) => m.id, 'id')),
  read({ db }) {
    const rows = db.prepare('SELECT * FROM guest_metadata ORDER BY guest_id').all() as Array<{
      guest_id: string
      custom_url: string
      description: string
      tags: string
      updated_at: number
    }>
    return rows.map((row) => ({
      id: row.guest_id,
      customUrl: row.custom_url,
      description: row.description,
      tags: parseTags(row.tags),
      updatedAt: row.updated_at,
    }))
  },
  write({ db }, records = []) {
    const insert = db.prepare(`INSERT INTO guest_metadata (guest_id, custom_url, description,
      tags, updated_at) VALUES (@id, @customUrl, @description, @tags, @updatedAt)`)
    db.prepare('DELETE FROM guest_metadata').run()
    for (const record of records) insert.run({ ...record, tags: JSON.stringify(record.tags) })
  },
  describe: (records) => `${records.length} guest metadata record(s)`,
})

// Login settings: username, argon2 password hash, API token digest and hint (never secrets).
const authSettingsSchema: z.ZodType<AuthSettings | null> = z
  .strictObject({
    username: z.string().min(1).max(200),
    passwordHash: z
      .string()
      .max(1000)
      .regex(/^\$argon2(id|i|d)\$/, 'must be an argon2 hash'),
    apiTokenHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 digest')
      .nullable(),
    apiTokenHint: text(100),
    createdAt: time,
    updatedAt: time,
  })
  .nullable()

const authSettingsSection = section<AuthSettings | null>({
  key: 'authSettings',
  tables: ['auth_settings'],
  schema: authSettingsSchema,
  read: ({ db }) => createAuthSettingsRepo(db).get(),
  write({ db }, settings) {
    // A file without login settings (exported with authentication disabled) leaves this
    // instance's login alone rather than opening it up.
    if (!settings) return
    db.prepare(
      `INSERT INTO auth_settings (id, username, password_hash, api_token_hash, api_token_hint,
         created_at, updated_at)
       VALUES (1, @username, @passwordHash, @apiTokenHash, @apiTokenHint, @createdAt, @updatedAt)
       ON CONFLICT (id) DO UPDATE SET username = excluded.username,
         password_hash = excluded.password_hash, api_token_hash = excluded.api_token_hash,
         api_token_hint = excluded.api_token_hint, created_at = excluded.created_at,
         updated_at = excluded.updated_at`,
    ).run(settings)
  },
  describe: (settings) =>
    settings ? `login settings (${settings.username})` : 'no login settings',
})

type Cell = string | number | null
type TableRow = Record<string, Cell>
const SEALED_SUFFIX = '_enc'

/**
 * A table copied column by column: the snapshot holds its rows with column names as keys; a
 * sealed column `x_enc` appears opened as `x`. Columns a file lacks take their defaults; a column
 * this instance does not have makes the file damaged.
 */
export function rowTableSection(options: {
  key: string
  table: string
  /** Columns holding secret-box output (names ending in `_enc`). */
  sealed?: readonly string[]
  optional?: boolean
  describe?: (rows: TableRow[]) => string
}): AnySection {
  const { key, table } = options
  const sealed = new Set(options.sealed ?? [])
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`
  const columnsOf = (db: Db) =>
    new Set(
      (db.prepare(`PRAGMA table_info(${quote(table)})`).all() as Array<{ name: string }>).map(
        (c) => c.name,
      ),
    )
  return section<TableRow[]>({
    key,
    tables: [table],
    optional: options.optional ?? false,
    schema: z
      .array(z.record(z.string().max(100), z.union([z.string(), z.number(), z.null()])))
      .max(MAX_ROWS),
    read({ db, box }) {
      const rows = db.prepare(`SELECT * FROM ${quote(table)}`).all() as TableRow[]
      return rows.map((row) => {
        const out: TableRow = {}
        for (const [column, value] of Object.entries(row)) {
          if (sealed.has(column)) {
            out[column.slice(0, -SEALED_SUFFIX.length)] =
              typeof value === 'string' && value !== '' ? box.decrypt(value) : null
          } else out[column] = value
        }
        return out
      })
    },
    write({ db, box }, rows = []) {
      const columns = columnsOf(db)
      db.prepare(`DELETE FROM ${quote(table)}`).run()
      for (const row of rows) {
        const values: TableRow = {}
        for (const [name, value] of Object.entries(row)) {
          const sealedName = name + SEALED_SUFFIX
          if (sealed.has(sealedName)) {
            values[sealedName] =
              typeof value === 'string' && value !== '' ? box.encrypt(value) : null
          } else if (columns.has(name) && !sealed.has(name)) {
            values[name] = value
          } else {
            throw snapshotDamaged(`${key}: unknown column ${name}`)
          }
        }
        const names = Object.keys(values)
        if (names.length === 0) throw snapshotDamaged(`${key}: empty row`)
        db.prepare(
          `INSERT INTO ${quote(table)} (${names.map(quote).join(', ')})
           VALUES (${names.map(() => '?').join(', ')})`,
        ).run(...names.map((name) => values[name] ?? null))
      }
    },
    describe: options.describe ?? ((rows) => `${rows.length} ${key} row(s)`),
  })
}

/** Every settings section, in write order. Add a settings table here. */
export const SECTIONS: readonly AnySection[] = [
  nodesSection,
  guestMetadataSection,
  authSettingsSection,
  ...USER_SECTIONS,
  ...TOKEN_SECTIONS,
  rowTableSection({
    key: 'oidc',
    table: 'oidc_config',
    sealed: ['client_secret_enc'],
    optional: true,
    describe: (rows) => (rows.length > 0 ? 'OIDC settings' : 'no OIDC settings'),
  }),
  // The single sign-on role mapping (issue 29 item 3); absent from older exports and data dirs.
  rowTableSection({
    key: 'oidcRoles',
    table: 'oidc_roles',
    optional: true,
    describe: (rows) => (rows.length > 0 ? 'OIDC role mapping' : 'no OIDC role mapping'),
  }),
  ...NOTIFY_SECTIONS,
]

function parseTags(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === 'string') : []
  } catch {
    return []
  }
}
