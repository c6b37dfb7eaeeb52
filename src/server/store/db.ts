// SQLite (better-sqlite3, WAL) with forward-only migrations from the first table on.
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'

export type Db = Database.Database

/** Ordered migrations; never edit a shipped one, add a new one. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE nodes (
     id TEXT PRIMARY KEY,
     type TEXT NOT NULL CHECK (type IN ('pve', 'pbs')),
     name TEXT NOT NULL UNIQUE COLLATE NOCASE,
     host TEXT NOT NULL,
     user TEXT,
     token_name TEXT,
     token_value_enc TEXT,
     password_enc TEXT,
     fingerprint TEXT,
     verify_ssl INTEGER NOT NULL DEFAULT 1,
     monitor_vms INTEGER NOT NULL DEFAULT 1,
     monitor_containers INTEGER NOT NULL DEFAULT 1,
     monitor_storage INTEGER NOT NULL DEFAULT 1,
     monitor_backups INTEGER NOT NULL DEFAULT 1,
     source TEXT NOT NULL DEFAULT 'user',
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   )`,
  // Guest metadata (spec 000 §3): keyed by whatever id the client uses (guest id or node-vmid).
  `CREATE TABLE guest_metadata (
     guest_id TEXT PRIMARY KEY,
     custom_url TEXT NOT NULL DEFAULT '',
     description TEXT NOT NULL DEFAULT '',
     tags TEXT NOT NULL DEFAULT '[]',
     updated_at INTEGER NOT NULL
   )`,
  // Authentication (issue 4): one settings row, sessions, login failures, audit log. Secrets are
  // stored only as digests: argon2id for the password, SHA-256 for the token, session and CSRF
  // ids; failure counters are keyed by a digest of username and IP (a mistyped password in the
  // username field must not land in the file).
  `CREATE TABLE auth_settings (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     username TEXT NOT NULL,
     password_hash TEXT NOT NULL,
     api_token_hash TEXT,
     api_token_hint TEXT NOT NULL DEFAULT '',
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE sessions (
     id_hash TEXT PRIMARY KEY,
     csrf_hash TEXT NOT NULL,
     username TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     last_seen_at INTEGER NOT NULL,
     revoked_at INTEGER
   );
   CREATE INDEX sessions_expires_at ON sessions (expires_at);
   CREATE TABLE login_failures (
     key_hash TEXT PRIMARY KEY,
     count INTEGER NOT NULL,
     first_failure_at INTEGER NOT NULL,
     locked_until INTEGER
   );
   CREATE TABLE audit_log (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     time INTEGER NOT NULL,
     type TEXT NOT NULL,
     username TEXT NOT NULL DEFAULT '',
     ip TEXT NOT NULL DEFAULT '',
     detail TEXT NOT NULL DEFAULT ''
   )`,
  // Single sign-on (OIDC): one config row (client secret sealed with the secret box; lists as
  // JSON arrays) and how each session was opened ('password' or 'oidc').
  `CREATE TABLE oidc_config (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     enabled INTEGER NOT NULL DEFAULT 0,
     issuer_url TEXT NOT NULL DEFAULT '',
     client_id TEXT NOT NULL DEFAULT '',
     client_secret_enc TEXT,
     redirect_url TEXT NOT NULL DEFAULT '',
     logout_url TEXT NOT NULL DEFAULT '',
     scopes TEXT NOT NULL DEFAULT '["openid","profile","email"]',
     username_claim TEXT NOT NULL DEFAULT 'preferred_username',
     email_claim TEXT NOT NULL DEFAULT 'email',
     groups_claim TEXT NOT NULL DEFAULT 'groups',
     allowed_groups TEXT NOT NULL DEFAULT '[]',
     allowed_domains TEXT NOT NULL DEFAULT '[]',
     allowed_emails TEXT NOT NULL DEFAULT '[]',
     updated_at INTEGER NOT NULL
   );
   ALTER TABLE sessions ADD COLUMN method TEXT NOT NULL DEFAULT 'password'`,
  // Alerts (issue 14): the config as one JSON row, the active alerts (JSON, ack included) and one
  // history row per occurrence. Times in epoch ms. `search` is the lower-cased text the history
  // search matches (id, type, resource, node, message), so a filter is one instr() per row; the
  // time index covers level and search, so counting a filtered range never reads the table, and
  // a narrow one serves the summary's counts over months without the search text.
  `CREATE TABLE alert_config (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     json TEXT NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE active_alerts (
     id TEXT PRIMARY KEY,
     json TEXT NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE alert_history (
     history_id INTEGER PRIMARY KEY AUTOINCREMENT,
     alert_id TEXT NOT NULL,
     type TEXT NOT NULL,
     level TEXT NOT NULL CHECK (level IN ('warning', 'critical')),
     resource_id TEXT NOT NULL,
     resource_name TEXT NOT NULL,
     node TEXT NOT NULL,
     instance TEXT NOT NULL,
     message TEXT NOT NULL,
     value REAL NOT NULL,
     threshold REAL NOT NULL,
     peak REAL NOT NULL,
     start_time INTEGER NOT NULL,
     end_time INTEGER,
     last_seen INTEGER NOT NULL,
     acknowledged INTEGER NOT NULL DEFAULT 0,
     ack_time INTEGER,
     ack_user TEXT,
     end_reason TEXT,
     resource_type TEXT NOT NULL DEFAULT '',
     search TEXT NOT NULL
   );
   CREATE INDEX alert_history_start ON alert_history (start_time, level, search);
   CREATE INDEX alert_history_start_level ON alert_history (start_time, level);
   CREATE INDEX alert_history_resource_start ON alert_history (resource_id, start_time);
   CREATE INDEX alert_history_open ON alert_history (alert_id) WHERE end_time IS NULL`,
  // Webhook destinations (webhook-repo.ts). The URL is always stored sealed, with its masked form
  // for display beside it; credential header values and secret custom fields are sealed inside
  // their JSON maps (`secret_headers_json`, the names in `secret_fields_json`).
  `CREATE TABLE webhooks (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     url_enc TEXT NOT NULL,
     url_masked TEXT NOT NULL,
     method TEXT NOT NULL CHECK (method IN ('POST', 'PUT', 'PATCH')),
     headers_json TEXT NOT NULL,
     secret_headers_json TEXT NOT NULL,
     enabled INTEGER NOT NULL,
     service TEXT NOT NULL,
     template TEXT NOT NULL,
     custom_fields_json TEXT NOT NULL,
     secret_fields_json TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   )`,
  // Email notifications (issue 15): one config row; the settings as JSON without the password,
  // which is sealed with the secret box in its own column (never in the JSON, never logged).
  `CREATE TABLE email_config (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     json TEXT NOT NULL,
     password_enc TEXT,
     updated_at INTEGER NOT NULL
   )`,
  // Notification outbox (issue 15): one row per notification and destination, written before
  // anything is sent, so a kill -9 loses nothing that was accepted. `idempotency_key` is unique:
  // re-planning the same alert transition after a restart is a no-op. A message is the rows of one
  // destination, group key and due time (always marked together), and its key is derived from
  // those (outbox-repo.ts), so a retry sends the same message under the same key; `batch_key` is
  // no longer written (it cost an update of every row at its first claim).
  // Times in epoch ms. The partial index holds only rows still to send; the memory index serves
  // the policy's cooldown / max-per-hour / fired-was-sent lookups. No index on created_at: the
  // hourly prune scans at most the row cap, and every insert would pay for it.
  `CREATE TABLE notification_outbox (
     id INTEGER PRIMARY KEY,
     idempotency_key TEXT NOT NULL UNIQUE,
     destination_kind TEXT NOT NULL CHECK (destination_kind IN ('email', 'webhook')),
     destination_id TEXT NOT NULL,
     destination_name TEXT NOT NULL,
     group_key TEXT NOT NULL,
     event TEXT NOT NULL,
     alert_id TEXT NOT NULL,
     event_kind TEXT NOT NULL,
     event_level INTEGER,
     alert_start TEXT NOT NULL,
     status TEXT NOT NULL
       CHECK (status IN ('pending', 'sent', 'failed', 'dead', 'suppressed')),
     reason TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     due_at INTEGER NOT NULL,
     last_error TEXT,
     last_info TEXT,
     batch_key TEXT,
     title TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     sent_at INTEGER
   );
   CREATE INDEX notification_outbox_due ON notification_outbox (next_attempt_at)
     WHERE status IN ('pending', 'failed');
   CREATE INDEX notification_outbox_memory
     ON notification_outbox (alert_id, destination_id, event_kind, status)`,
  // The policy's memory is read once per dispatch by alert id (notify/planning-memory.ts): the
  // four-column index (status in it, so every send rewrote it) cost each of a storm's inserts more
  // than it saved.
  `DROP INDEX notification_outbox_memory;
   CREATE INDEX notification_outbox_alert ON notification_outbox (alert_id)`,
  // Guest metadata retention (issue 24 #8, metadata/metadata-retention.ts): when the sweep first
  // found the record's guest missing from a fully connected estate (epoch ms); NULL while present.
  `ALTER TABLE guest_metadata ADD COLUMN absent_since INTEGER`,
  // The storage probe of /api/health (store/storage-health.ts): one row, rewritten to prove that
  // the data file can still be written.
  `CREATE TABLE storage_probe (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL)`,
  // Quiet hours' category flags took the reference's meaning (issue 24 #12): a set flag used to
  // let its category's critical alerts through and now holds them. A stored choice keeps its
  // intent, so a config with any flag set has all three inverted (ticking 'offline' to be paged
  // for a node down keeps paging); one with none set was the old default and now pages for every
  // critical alert. A config that is not valid JSON is left for the loader's fallback.
  `UPDATE alert_config SET json = json_set(json,
     '$.schedule.quietHours.suppress.performance',
     json(CASE WHEN json_extract(json, '$.schedule.quietHours.suppress.performance') THEN 'false' ELSE 'true' END),
     '$.schedule.quietHours.suppress.storage',
     json(CASE WHEN json_extract(json, '$.schedule.quietHours.suppress.storage') THEN 'false' ELSE 'true' END),
     '$.schedule.quietHours.suppress.offline',
     json(CASE WHEN json_extract(json, '$.schedule.quietHours.suppress.offline') THEN 'false' ELSE 'true' END))
   WHERE CASE WHEN json_valid(json) THEN
     json_type(json, '$.schedule.quietHours.suppress') = 'object' AND (
       json_extract(json, '$.schedule.quietHours.suppress.performance') = 1 OR
       json_extract(json, '$.schedule.quietHours.suppress.storage') = 1 OR
       json_extract(json, '$.schedule.quietHours.suppress.offline') = 1)
     ELSE 0 END`,
  // The notification inbox (issue 27, notify/storm.ts): a dispatch too large to plan on the event
  // loop is committed here as one row (its events and the plan's inputs) before it is
  // acknowledged; a worker thread plans it into outbox rows and deletes it in the same transaction
  // as the last of them. A row left by a kill is planned again on start (the outbox's unique keys
  // make the rows it already wrote no-ops). Queued outbox rows are untouched.
  `CREATE TABLE IF NOT EXISTS notification_inbox (
     id INTEGER PRIMARY KEY,
     json TEXT NOT NULL,
     created_at INTEGER NOT NULL
   )`,
  // Silences (issue 28, store/silences-repo.ts): each one whole as JSON (shared/model/silences.ts),
  // written once when created and once when ended early; `ended_at` orders the pruning of old ones.
  `CREATE TABLE IF NOT EXISTS silences (
     id TEXT PRIMARY KEY,
     json TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     ended_at INTEGER
   )`,
  // Notes on an occurrence (issue 28 item 4, store/alert-notes-repo.ts): one row per history row
  // that has notes, deleted with it, so they stay in History and go with it. `notes_text` (lower
  // case) is kept in the history row's `search` too, so History's search finds them.
  `CREATE TABLE IF NOT EXISTS alert_notes (
     history_id INTEGER PRIMARY KEY REFERENCES alert_history (history_id) ON DELETE CASCADE,
     notes TEXT NOT NULL,
     notes_text TEXT NOT NULL
   )`,
  // Dead letters for /metrics (issue 28, store/outbox-counts.ts): counting them by status read
  // every row of the outbox (~90 ms at the row cap); this index holds only the dead ones.
  `CREATE INDEX IF NOT EXISTS notification_outbox_dead
     ON notification_outbox (destination_kind) WHERE status = 'dead'`,
  // Local users (issue 29 item 2, store/users-repo.ts): names unique whatever their case; the
  // first-run account of auth_settings is copied in as an admin (its row keeps what else it holds).
  `CREATE TABLE IF NOT EXISTS users (
     username TEXT PRIMARY KEY COLLATE NOCASE,
     password_hash TEXT NOT NULL,
     role TEXT NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
     disabled INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   INSERT OR IGNORE INTO users (username, password_hash, role, disabled, created_at, updated_at)
     SELECT username, password_hash, 'admin', 0, created_at, updated_at FROM auth_settings`,
  // API tokens with roles (issue 29 item 4, store/api-tokens-repo.ts): SHA-256 of each token
  // (high-entropy random values: a fast digest looked up by its unique index), never the value.
  // The single token of before becomes the admin token "default", so scripts using it keep
  // working; auth_settings keeps its old columns, unread for verification from here on.
  `CREATE TABLE IF NOT EXISTS api_tokens (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL UNIQUE,
     role TEXT NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
     hash TEXT NOT NULL,
     hint TEXT,
     created_at INTEGER NOT NULL,
     last_used_at INTEGER
   );
   CREATE UNIQUE INDEX IF NOT EXISTS api_tokens_hash ON api_tokens (hash);
   INSERT OR IGNORE INTO api_tokens (id, name, role, hash, hint, created_at, last_used_at)
     SELECT lower(hex(randomblob(16))), 'default', 'admin', api_token_hash, api_token_hint,
       updated_at, NULL
     FROM auth_settings WHERE api_token_hash IS NOT NULL`,
  // Single sign-on roles (issue 29 item 3, auth/oidc-roles.ts): the group → role mapping beside
  // oidc_config (no row = no mapping, default admin: as before roles), and the role decided at
  // each single sign-on (a side table: ALTER TABLE ADD COLUMN cannot be re-run).
  `CREATE TABLE IF NOT EXISTS oidc_roles (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     role_mapping TEXT NOT NULL DEFAULT '[]',
     default_role TEXT NOT NULL DEFAULT 'admin'
   );
   CREATE TABLE IF NOT EXISTS session_roles (
     session_id_hash TEXT PRIMARY KEY,
     role TEXT NOT NULL CHECK (role IN ('viewer', 'operator', 'admin'))
   )`,
  // Session list (issue 29 item 5, auth/sessions.ts): each session's public reference (what the
  // list shows and ending one names; never its id or digest), the browser it was opened from and
  // the address last seen. A session from before this has no row until it is listed.
  `CREATE TABLE IF NOT EXISTS session_clients (
     session_id_hash TEXT PRIMARY KEY,
     ref TEXT NOT NULL UNIQUE,
     user_agent TEXT NOT NULL DEFAULT '',
     ip TEXT NOT NULL DEFAULT ''
   )`,
]

/** Open (creating if needed) the database file under dataDir and bring it to the latest schema. */
export function openDatabase(dataDir: string, fileName = 'pulse.db'): Db {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const db = new Database(path.join(dataDir, fileName))
  db.pragma('journal_mode = WAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  // 32 MiB of page cache (the default is 2 MiB): the outbox's and the history's indexes take
  // random-order keys, and a storm's inserts thrashed the small cache.
  db.pragma('cache_size = -32768')
  migrate(db)
  return db
}

/** Apply pending migrations, each in its own transaction. Returns the resulting schema version. */
export function migrate(db: Db): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)')
  const row = db.prepare('SELECT version FROM schema_version').get() as
    { version: number } | undefined
  let version = row?.version ?? 0
  if (!row) db.prepare('INSERT INTO schema_version (version) VALUES (0)').run()
  for (; version < MIGRATIONS.length; version++) {
    const sql = MIGRATIONS[version]!
    db.transaction(() => {
      db.exec(sql)
      db.prepare('UPDATE schema_version SET version = ?').run(version + 1)
    })()
  }
  return version
}
