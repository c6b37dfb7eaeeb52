// The notification inbox's migration (issue 27) on a real SQLite file: a database at the schema
// before it, holding outbox rows still to send (pending, failed after an attempt), is brought
// forward as a start after the upgrade does; the rows stay, are claimed as they were, and the
// storm path can stage into the new table.
import { afterEach, describe, expect, it } from 'vitest'
import { enqueueEvents } from '../../../../src/server/notify/enqueue.ts'
import { MIGRATIONS, migrate, openDatabase } from '../../../../src/server/store/db.ts'
import { createOutboxInbox } from '../../../../src/server/store/outbox-inbox.ts'
import { createOutboxRepo } from '../../../../src/server/store/outbox-repo.ts'
import { createDefaultAlertConfig } from '../../../../src/server/alerts/config-defaults.ts'
import { fired, hook, T0 } from '../notify/notify-fixture.ts'
import { makeTempDir } from '../temp-dir.ts'

const temp = makeTempDir()
afterEach(() => temp.cleanup())

describe('the notification inbox migration', () => {
  it('keeps queued outbox rows of the old schema claimable', () => {
    // The old schema: every migration but the inbox's (and the silences', the alert notes' and
    // the dead-letter index's after it, issue 28, idempotent), with rows queued under it.
    const old = openDatabase(temp.dir)
    const latest = migrate(old)
    old.exec('DROP TABLE notification_inbox')
    old
      .prepare('UPDATE schema_version SET version = ?')
      .run(
        MIGRATIONS.findIndex((sql) =>
          sql.includes('CREATE TABLE IF NOT EXISTS notification_inbox'),
        ),
      )
    const schedule = createDefaultAlertConfig().schedule
    schedule.grouping.enabled = false
    const repo = createOutboxRepo(old)
    enqueueEvents(repo, [fired(1), fired(2), fired(3)], schedule, [hook('a'), hook('b')], T0)
    const [first] = repo.claimDue(T0)
    repo.markFailed(
      first!.rows.map((r) => r.id),
      { error: 'HTTP 500', retryable: true, now: T0, maxAttempts: 8 },
    )
    const before = repo.claimDue(T0 + 3_600_000)
    old.close()

    const db = openDatabase(temp.dir)
    try {
      expect(db.prepare('SELECT version FROM schema_version').get()).toEqual({ version: latest })
      const after = createOutboxRepo(db)
      expect(after.claimDue(T0 + 3_600_000)).toEqual(before)
      expect(before.flatMap((b) => b.rows)).toHaveLength(6)
      expect(before[0]!.rows[0]!.attempts).toBe(1)
      const inbox = createOutboxInbox(db)
      const id = inbox.stage('{"events":[]}', T0)
      expect(inbox.pending()).toEqual([{ id, json: '{"events":[]}' }])
    } finally {
      db.close()
    }
  })
})
