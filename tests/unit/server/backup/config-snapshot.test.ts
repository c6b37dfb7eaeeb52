// Settings snapshot over real SQLite files: every table out (secrets opened) and back in one
// transaction, re-sealed with the target's key.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AppError } from '../../../../src/shared/model/errors.ts'
import {
  parseSnapshot,
  presentSections,
  readSnapshot,
  rowTableSection,
  SECTIONS,
  writeSnapshot,
  type ConfigSnapshot,
  type SectionHandler,
  type SnapshotContext,
} from '../../../../src/server/backup/config-snapshot.ts'
import { createAuthSettingsRepo } from '../../../../src/server/store/auth-settings-repo.ts'
import { createUsersRepo } from '../../../../src/server/store/users-repo.ts'
import { openDatabase } from '../../../../src/server/store/db.ts'
import { createMetadataRepo } from '../../../../src/server/store/metadata-repo.ts'
import { createNodesRepo, type NewNode } from '../../../../src/server/store/nodes-repo.ts'
import { createSecretBox, loadOrCreateKey } from '../../../../src/server/store/secret-box.ts'
import { makeTempDir } from '../temp-dir.ts'

const TOKEN = 'b7f3c1d2-token-value-0001'
const NODE_PASSWORD = 'node-password-0002'
const OIDC_SECRET = 'oidc-client-secret-0003'

const node = (name: string, extra: Partial<NewNode> = {}): NewNode => ({
  type: 'pve',
  name,
  host: `https://${name}.example.test:8006`,
  user: null,
  tokenName: 'monitor@pve!pulse',
  tokenValue: TOKEN,
  password: null,
  fingerprint: null,
  verifySSL: true,
  monitorVMs: true,
  monitorContainers: true,
  monitorStorage: false,
  monitorBackups: true,
  source: 'user',
  ...extra,
})

const cleanups: Array<() => void> = []
function instance(): SnapshotContext & { close(): void } {
  const { dir, cleanup } = makeTempDir()
  const db = openDatabase(dir)
  const close = () => {
    if (db.open) db.close()
    cleanup()
  }
  cleanups.push(close)
  return { db, box: createSecretBox(loadOrCreateKey(dir)), now: 1_700_000_000_000, close }
}

const hasOidcTable = (ctx: SnapshotContext) => presentSections(ctx.db).some((s) => s.key === 'oidc')

function seed(ctx: SnapshotContext): void {
  const nodes = createNodesRepo(ctx.db, ctx.box)
  nodes.insert(node('alpha'), 1)
  nodes.insert(
    node('beta', { tokenName: null, tokenValue: null, user: 'root@pam', password: NODE_PASSWORD }),
    2,
  )
  createMetadataRepo(ctx.db).save(
    'pve-alpha-100',
    { customUrl: 'https://grafana.test/100', tags: ['web'] },
    3,
  )
  createAuthSettingsRepo(ctx.db).insertIfAbsent(
    {
      username: 'admin',
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA',
      apiTokenHash: 'a'.repeat(64),
      apiTokenHint: 'abcdefgh...wxyz',
    },
    4,
  )
  // As first-run setup does (issue 29 item 2): the login account is the first user, an admin.
  if (presentSections(ctx.db).some((s) => s.key === 'users')) {
    createUsersRepo(ctx.db).insert(
      {
        username: 'admin',
        passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA',
        role: 'admin',
        disabled: false,
      },
      4,
    )
  }
  if (hasOidcTable(ctx)) {
    ctx.db
      .prepare(
        `INSERT INTO oidc_config (id, enabled, issuer_url, client_id, client_secret_enc, updated_at)
         VALUES (1, 1, 'https://issuer.test', 'pulse', ?, 5)`,
      )
      .run(ctx.box.encrypt(OIDC_SECRET))
  }
}

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn()
  } catch (err) {
    return err instanceof AppError ? err.code : String(err)
  }
  return undefined
}

let source: ReturnType<typeof instance>
let target: ReturnType<typeof instance>
beforeEach(() => {
  source = instance()
  target = instance()
  seed(source)
})
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

/** What the tables of an instance hold, secrets opened: for before/after comparisons. */
const contents = (ctx: SnapshotContext) => JSON.parse(JSON.stringify(readSnapshot(ctx)))

describe('readSnapshot', () => {
  it('holds every settings table with secrets opened', () => {
    const snapshot = readSnapshot(source)
    expect(snapshot.version).toBe(1)
    const nodes = snapshot.nodes as Array<Record<string, unknown>>
    expect(nodes.map((n) => n.name).sort()).toEqual(['alpha', 'beta'])
    expect(nodes.find((n) => n.name === 'alpha')).toMatchObject({ tokenValue: TOKEN })
    expect(nodes.find((n) => n.name === 'beta')).toMatchObject({ password: NODE_PASSWORD })
    expect(snapshot.guestMetadata).toEqual([
      {
        id: 'pve-alpha-100',
        customUrl: 'https://grafana.test/100',
        description: '',
        tags: ['web'],
        updatedAt: 3,
      },
    ])
    expect(snapshot.authSettings).toMatchObject({ username: 'admin', apiTokenHash: 'a'.repeat(64) })
    if (hasOidcTable(source)) {
      expect(snapshot.oidc).toEqual([
        expect.objectContaining({ id: 1, client_id: 'pulse', client_secret: OIDC_SECRET }),
      ])
      expect(JSON.stringify(snapshot)).not.toContain('client_secret_enc')
    }
  })

  it('leaves out a section whose table does not exist', () => {
    const ghost: SectionHandler<number> = {
      key: 'ghost',
      tables: ['no_such_table'],
      schema: z.number(),
      read: () => 1,
      write: () => {
        throw new Error('must not be called')
      },
      describe: () => 'ghost',
    }
    const sections = [...SECTIONS, ghost as unknown as SectionHandler<unknown>]
    const snapshot = readSnapshot(source, sections)
    expect('ghost' in snapshot).toBe(false)
    expect(snapshot.nodes).toBeDefined()
    writeSnapshot(target, parseSnapshot(JSON.stringify(snapshot), sections.slice(0, -1)), {
      sections,
    })
  })
})

describe('writeSnapshot', () => {
  it('restores everything into another instance, re-sealed with its key', () => {
    const before = contents(source)
    writeSnapshot(target, parseSnapshot(JSON.stringify(readSnapshot(source))))
    expect(contents(target)).toEqual(before)

    const stored = createNodesRepo(target.db, target.box).list()
    expect(stored.find((n) => n.name === 'alpha')?.tokenValue).toBe(TOKEN)
    const sourceSealed = source.db.prepare('SELECT token_value_enc AS v FROM nodes WHERE name = ?')
    const targetSealed = target.db.prepare('SELECT token_value_enc AS v FROM nodes WHERE name = ?')
    const a = (sourceSealed.get('alpha') as { v: string }).v
    const b = (targetSealed.get('alpha') as { v: string }).v
    expect(b).not.toBe(a)
    expect(b).not.toContain(TOKEN)
    // The source's key cannot open the target's secrets, and the other way round.
    expect(() => source.box.decrypt(b)).toThrow()
    expect(target.box.decrypt(b)).toBe(TOKEN)
    if (hasOidcTable(target)) {
      const row = target.db.prepare('SELECT client_secret_enc AS v FROM oidc_config').get() as {
        v: string
      }
      expect(target.box.decrypt(row.v)).toBe(OIDC_SECRET)
    }
  })

  it('replaces what the target had', () => {
    createNodesRepo(target.db, target.box).insert(node('gamma'), 9)
    createMetadataRepo(target.db).save('other', { description: 'old' }, 9)
    writeSnapshot(target, parseSnapshot(JSON.stringify(readSnapshot(source))))
    const names = createNodesRepo(target.db, target.box)
      .list()
      .map((n) => n.name)
    expect(names.sort()).toEqual(['alpha', 'beta'])
    expect(Object.keys(createMetadataRepo(target.db).all())).toEqual(['pve-alpha-100'])
  })

  it('keeps the login when the file has none, and clears OIDC when the file lacks it', () => {
    seed(target)
    const snapshot = readSnapshot(source) as ConfigSnapshot
    snapshot.authSettings = null
    delete snapshot.oidc
    const login = createAuthSettingsRepo(target.db).get()
    writeSnapshot(target, parseSnapshot(JSON.stringify(snapshot)))
    expect(createAuthSettingsRepo(target.db).get()).toEqual(login)
    if (hasOidcTable(target)) {
      expect(target.db.prepare('SELECT COUNT(*) AS n FROM oidc_config').get()).toEqual({ n: 0 })
    }
  })

  it('changes nothing when a later section fails (one transaction)', () => {
    if (!hasOidcTable(target)) return
    seed(target)
    const before = contents(target)
    const snapshot = readSnapshot(source) as ConfigSnapshot
    snapshot.nodes = []
    // Written after nodes, metadata and login: an unknown column, then a CHECK violation.
    snapshot.oidc = [{ id: 1, no_such_column: 'x', updated_at: 1 }]
    expect(codeOf(() => writeSnapshot(target, parseSnapshot(JSON.stringify(snapshot))))).toBe(
      'IMPORT_DAMAGED',
    )
    expect(contents(target)).toEqual(before)
    snapshot.oidc = [{ id: 2, updated_at: 1 }]
    expect(codeOf(() => writeSnapshot(target, parseSnapshot(JSON.stringify(snapshot))))).toBe(
      'IMPORT_DAMAGED',
    )
    expect(contents(target)).toEqual(before)
  })

  it('runs the extra step inside the transaction', () => {
    const before = contents(target)
    expect(() =>
      writeSnapshot(target, parseSnapshot(JSON.stringify(readSnapshot(source))), {
        alsoInTransaction: () => {
          throw new Error('late failure')
        },
      }),
    ).toThrow('late failure')
    expect(contents(target)).toEqual(before)
  })
})

describe('parseSnapshot', () => {
  const valid = () => JSON.parse(JSON.stringify(readSnapshot(source))) as Record<string, unknown>
  const nodesOf = (s: Record<string, unknown>) => s.nodes as Array<Record<string, unknown>>

  it.each<[string, (s: Record<string, unknown>) => unknown]>([
    ['not JSON', () => 'not json'],
    ['an array', () => []],
    ['another version', (s) => ({ ...s, version: 2 })],
    ['no nodes section', (s) => ({ ...s, nodes: undefined })],
    ['no guest metadata section', (s) => ({ ...s, guestMetadata: undefined })],
    ['a node of an unknown type', (s) => ({ ...s, nodes: [{ ...nodesOf(s)[0], type: 'esx' }] })],
    ['a node with a bad host', (s) => ({ ...s, nodes: [{ ...nodesOf(s)[0], host: 'nope' }] })],
    ['a node with an extra field', (s) => ({ ...s, nodes: [{ ...nodesOf(s)[0], x: 1 }] })],
    [
      'a node flag that is not boolean',
      (s) => ({ ...s, nodes: [{ ...nodesOf(s)[0], verifySSL: 1 }] }),
    ],
    [
      'two nodes of the same name',
      (s) => ({
        ...s,
        nodes: [nodesOf(s)[0], { ...nodesOf(s)[0], id: 'pve-other', name: 'ALPHA' }],
      }),
    ],
    [
      'a login without an argon2 hash',
      (s) => ({ ...s, authSettings: { ...(s.authSettings as object), passwordHash: 'plain' } }),
    ],
  ])('says IMPORT_DAMAGED for %s', (_name, make) => {
    const value = make(valid())
    const json = typeof value === 'string' ? value : JSON.stringify(value)
    expect(codeOf(() => parseSnapshot(json))).toBe('IMPORT_DAMAGED')
  })

  it('ignores sections it does not know', () => {
    const parsed = parseSnapshot(JSON.stringify({ ...valid(), fromTheFuture: [1, 2] }))
    expect('fromTheFuture' in parsed).toBe(false)
  })
})

describe('rowTableSection', () => {
  it('copies a table column by column, opening and re-sealing *_enc columns', () => {
    for (const ctx of [source, target]) {
      ctx.db.exec(
        'CREATE TABLE extra_settings (id INTEGER PRIMARY KEY, label TEXT NOT NULL, secret_enc TEXT, n INTEGER DEFAULT 7)',
      )
    }
    source.db
      .prepare('INSERT INTO extra_settings (id, label, secret_enc) VALUES (1, ?, ?)')
      .run('one', source.box.encrypt('s3cret'))
    const extra = rowTableSection({ key: 'extra', table: 'extra_settings', sealed: ['secret_enc'] })
    const snapshot = readSnapshot(source, [extra])
    expect(snapshot.extra).toEqual([{ id: 1, label: 'one', secret: 's3cret', n: 7 }])
    writeSnapshot(target, parseSnapshot(JSON.stringify(snapshot), [extra]), { sections: [extra] })
    const row = target.db.prepare('SELECT * FROM extra_settings').get() as Record<string, unknown>
    expect(target.box.decrypt(row.secret_enc as string)).toBe('s3cret')
    // A sealed column cannot be written raw.
    const raw = { version: 1, extra: [{ id: 1, label: 'x', secret_enc: 'v1:AAAA' }] }
    expect(
      codeOf(() =>
        writeSnapshot(target, parseSnapshot(JSON.stringify(raw), [extra]), { sections: [extra] }),
      ),
    ).toBe('IMPORT_DAMAGED')
  })
})
