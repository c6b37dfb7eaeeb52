// Node configurations in SQLite. Secrets are stored sealed; only this module and the service see them.
import crypto from 'node:crypto'
import type { Db } from './db.ts'
import type { SecretBox } from './secret-box.ts'
import type { NodeType } from '../../shared/model/node-config.ts'

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
}

/** Repository over the `nodes` table. */
export function createNodesRepo(db: Db, box: SecretBox): NodesRepo {
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
  }
}
