// The nodes table gains the PBS feature-flag columns additively: rows stored before keep their
// data and read as "all on"; the stored node shape the configuration export reads is unchanged.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../../../src/server/store/db.ts'
import { createNodesRepo, migrateNodeColumns } from '../../../../src/server/store/nodes-repo.ts'
import { createSecretBox, loadOrCreateKey } from '../../../../src/server/store/secret-box.ts'
import { makeTempDir } from '../temp-dir.ts'

let temp: ReturnType<typeof makeTempDir>
let db: Db
beforeEach(() => {
  temp = makeTempDir()
  db = openDatabase(temp.dir)
})
afterEach(() => {
  db.close()
  temp.cleanup()
})

const columns = () =>
  (db.prepare('PRAGMA table_info(nodes)').all() as Array<{ name: string }>).map((c) => c.name)

describe('nodes table migration', () => {
  it('adds the PBS flag columns and keeps the rows stored before', () => {
    const box = createSecretBox(loadOrCreateKey(temp.dir))
    expect(columns()).not.toContain('monitor_datastores')
    db.prepare(
      `INSERT INTO nodes (id, type, name, host, user, password_enc, verify_ssl, monitor_vms,
       monitor_containers, monitor_storage, monitor_backups, source, created_at, updated_at)
       VALUES ('pbs-old1', 'pbs', 'backup', 'https://127.0.0.3:8007', 'admin@pbs', @pw, 1, 1, 0, 1,
       1, 'user', 10, 20)`,
    ).run({ pw: box.encrypt('old-password') })

    const repo = createNodesRepo(db, box)
    expect(columns()).toEqual(
      expect.arrayContaining([
        'monitor_datastores',
        'monitor_sync_jobs',
        'monitor_verify_jobs',
        'monitor_prune_jobs',
        'monitor_garbage_jobs',
      ]),
    )
    const [node] = repo.list()
    expect(node).toMatchObject({
      id: 'pbs-old1',
      name: 'backup',
      user: 'admin@pbs',
      password: 'old-password',
      monitorContainers: false,
      createdAt: 10,
    })
    // The export validates this shape strictly: no new keys in it.
    expect(Object.keys(node!)).not.toContain('monitorDatastores')
    expect(repo.pbsFlags().get('pbs-old1')).toEqual({
      monitorDatastores: true,
      monitorSyncJobs: true,
      monitorVerifyJobs: true,
      monitorPruneJobs: true,
      monitorGarbageJobs: true,
    })

    repo.setPbsFlags('pbs-old1', {
      monitorDatastores: true,
      monitorSyncJobs: false,
      monitorVerifyJobs: true,
      monitorPruneJobs: false,
      monitorGarbageJobs: true,
    })
    // Migrating again changes nothing; the flags survive a new repository.
    migrateNodeColumns(db)
    const again = createNodesRepo(db, box)
    expect(again.pbsFlags().get('pbs-old1')).toMatchObject({
      monitorSyncJobs: false,
      monitorPruneJobs: false,
    })
    expect(again.list()).toEqual(repo.list())
  })
})
