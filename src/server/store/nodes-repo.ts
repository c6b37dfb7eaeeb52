// Node configurations in SQLite. Secrets are stored sealed; only this module and the service see them.
import crypto from 'node:crypto'
import type { Db } from './db.ts'
import type { SecretBox } from './secret-box.ts'
import {
  PBS_MONITOR_FLAGS,
  type NodeType,
  type PbsMonitorFlag,
  type PbsMonitorFlags,
} from '../../shared/model/node-config.ts'

/** A stored node with its secrets opened: server memory only, never serialised to a client. */
export interface StoredNode {
  id: string
  type: NodeType
  name: string
  host: string
  user: string | null
  tokenName: string | null
  tokenValue: string | null
  password: string | null
  fingerprint: string | null
  verifySSL: boolean
  monitorVMs: boolean
  monitorContainers: boolean
  monitorStorage: boolean
  monitorBackups: boolean
  /** 'user' for nodes added by an administrator, 'demo' for the simulator's. */
  source: string
  createdAt: number
  updatedAt: number
}

export type NewNode = Omit<StoredNode, 'id' | 'createdAt' | 'updatedAt'>

// The PBS feature flags live in columns added after the first release. They are kept out of
// StoredNode on purpose: the configuration export (backup/config-sections.ts) validates
// StoredNode with a strict schema, and a new key would make its files unreadable on import.
const PBS_COLUMNS: Record<PbsMonitorFlag, string> = {
  monitorDatastores: 'monitor_datastores',
  monitorSyncJobs: 'monitor_sync_jobs',
  monitorVerifyJobs: 'monitor_verify_jobs',
  monitorPruneJobs: 'monitor_prune_jobs',
  monitorGarbageJobs: 'monitor_garbage_jobs',
}

/** All PBS flags on: the default for new and migrated nodes. */
export const ALL_PBS_FLAGS: PbsMonitorFlags = {
  monitorDatastores: true,
  monitorSyncJobs: true,
  monitorVerifyJobs: true,
  monitorPruneJobs: true,
  monitorGarbageJobs: true,
}

/** Add the PBS flag columns to an existing table (additive: existing rows get 1). Idempotent. */
export function migrateNodeColumns(db: Db): void {
  const columns = db.prepare('PRAGMA table_info(nodes)').all() as Array<{ name: string }>
  const present = new Set(columns.map((c) => c.name))
  if (present.size === 0) return
  db.transaction(() => {
    for (const column of Object.values(PBS_COLUMNS)) {
      if (!present.has(column)) {
        db.exec(`ALTER TABLE nodes ADD COLUMN ${column} INTEGER NOT NULL DEFAULT 1`)
      }
    }
  })()
}

interface Row {
  id: string
  type: NodeType
  name: string
  host: string
  user: string | null
  token_name: string | null
  token_value_enc: string | null
  password_enc: string | null
  fingerprint: string | null
  verify_ssl: number
  monitor_vms: number
  monitor_containers: number
  monitor_storage: number
  monitor_backups: number
  source: string
  created_at: number
  updated_at: number
}

export interface NodesRepo {
  list(): StoredNode[]
  get(id: string): StoredNode | undefined
  findByName(name: string): StoredNode | undefined
  insert(node: NewNode, now: number): StoredNode
  update(id: string, node: NewNode, now: number): StoredNode
  remove(id: string): boolean
  /** PBS feature flags of every node, by id. */
  pbsFlags(): Map<string, PbsMonitorFlags>
  /** Store a node's PBS feature flags. */
  setPbsFlags(id: string, flags: PbsMonitorFlags): void
}

/** Repository over the `nodes` table. */
export function createNodesRepo(db: Db, box: SecretBox): NodesRepo {
  migrateNodeColumns(db)
  const open = (sealed: string | null) => (sealed ? box.decrypt(sealed) : null)
  const seal = (plain: string | null) => (plain ? box.encrypt(plain) : null)
  const toNode = (row: Row): StoredNode => ({
    id: row.id,
    type: row.type,
    name: row.name,
    host: row.host,
    user: row.user,
    tokenName: row.token_name,
    tokenValue: open(row.token_value_enc),
    password: open(row.password_enc),
    fingerprint: row.fingerprint,
    verifySSL: row.verify_ssl === 1,
    monitorVMs: row.monitor_vms === 1,
    monitorContainers: row.monitor_containers === 1,
    monitorStorage: row.monitor_storage === 1,
    monitorBackups: row.monitor_backups === 1,
    source: row.source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  })
  const params = (node: NewNode) => ({
    type: node.type,
    name: node.name,
    host: node.host,
    user: node.user,
    token_name: node.tokenName,
    token_value_enc: seal(node.tokenValue),
    password_enc: seal(node.password),
    fingerprint: node.fingerprint,
    verify_ssl: node.verifySSL ? 1 : 0,
    monitor_vms: node.monitorVMs ? 1 : 0,
    monitor_containers: node.monitorContainers ? 1 : 0,
    monitor_storage: node.monitorStorage ? 1 : 0,
    monitor_backups: node.monitorBackups ? 1 : 0,
    source: node.source,
  })
  const selectAll = db.prepare('SELECT * FROM nodes ORDER BY type, created_at, name')
  const selectOne = db.prepare('SELECT * FROM nodes WHERE id = ?')
  const selectByName = db.prepare('SELECT * FROM nodes WHERE name = ?')
  const insertStmt = db.prepare(`INSERT INTO nodes (id, type, name, host, user, token_name,
    token_value_enc, password_enc, fingerprint, verify_ssl, monitor_vms, monitor_containers,
    monitor_storage, monitor_backups, source, created_at, updated_at) VALUES (@id, @type, @name,
    @host, @user, @token_name, @token_value_enc, @password_enc, @fingerprint, @verify_ssl,
    @monitor_vms, @monitor_containers, @monitor_storage, @monitor_backups, @source, @now, @now)`)
  const updateStmt = db.prepare(`UPDATE nodes SET type = @type, name = @name, host = @host,
    user = @user, token_name = @token_name, token_value_enc = @token_value_enc,
    password_enc = @password_enc, fingerprint = @fingerprint, verify_ssl = @verify_ssl,
    monitor_vms = @monitor_vms, monitor_containers = @monitor_containers,
    monitor_storage = @monitor_storage, monitor_backups = @monitor_backups, source = @source,
    updated_at = @now WHERE id = @id`)
  const deleteStmt = db.prepare('DELETE FROM nodes WHERE id = ?')
  const pbsColumns = PBS_MONITOR_FLAGS.map((f) => PBS_COLUMNS[f])
  const selectFlags = db.prepare(`SELECT id, ${pbsColumns.join(', ')} FROM nodes`)
  const updateFlags = db.prepare(
    `UPDATE nodes SET ${pbsColumns.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`,
  )

  return {
    list: () => (selectAll.all() as Row[]).map(toNode),
    get: (id) => {
      const row = selectOne.get(id) as Row | undefined
      return row && toNode(row)
    },
    findByName: (name) => {
      const row = selectByName.get(name) as Row | undefined
      return row && toNode(row)
    },
    insert(node, now) {
      // Stable, opaque ids: unlike the reference's list-position ids they survive deletions.
      const id = `${node.type}-${crypto.randomUUID().slice(0, 8)}`
      insertStmt.run({ ...params(node), id, now })
      return toNode(selectOne.get(id) as Row)
    },
    update(id, node, now) {
      updateStmt.run({ ...params(node), id, now })
      return toNode(selectOne.get(id) as Row)
    },
    remove: (id) => deleteStmt.run(id).changes > 0,
    pbsFlags() {
      const out = new Map<string, PbsMonitorFlags>()
      for (const row of selectFlags.all() as Array<Record<string, string | number>>) {
        const flags = { ...ALL_PBS_FLAGS }
        for (const f of PBS_MONITOR_FLAGS) flags[f] = row[PBS_COLUMNS[f]] === 1
        out.set(String(row.id), flags)
      }
      return out
    },
    setPbsFlags(id, flags) {
      const values: Record<string, string | number> = { id }
      for (const f of PBS_MONITOR_FLAGS) values[PBS_COLUMNS[f]] = flags[f] ? 1 : 0
      updateFlags.run(values)
    },
  }
}
