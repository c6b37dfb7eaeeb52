// The email settings row on a real SQLite file: the password sealed with the secret box, the ''
// keeps / clearPassword rules, and a row written before a key existed reading that key's default.
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../../../src/server/store/db.ts'
import { createEmailRepo, EMAIL_DEFAULTS } from '../../../../src/server/store/email-repo.ts'
import { createSecretBox, loadOrCreateKey } from '../../../../src/server/store/secret-box.ts'
import { makeTempDir } from '../temp-dir.ts'
import { smtpConfig } from './email-fixture.ts'

const opened: Array<{ db: Db; cleanup: () => void }> = []
afterEach(() => {
  for (const { db, cleanup } of opened.splice(0)) {
    db.close()
    cleanup()
  }
})

function repoOnDisk() {
  const { dir, cleanup } = makeTempDir()
  const db = openDatabase(dir)
  opened.push({ db, cleanup })
  return { db, repo: createEmailRepo(db, createSecretBox(loadOrCreateKey(dir))) }
}

describe('email repo', () => {
  it('answers the defaults before anything is saved', () => {
    const { repo } = repoOnDisk()
    expect(repo.get()).toEqual({ ...EMAIL_DEFAULTS, hasPassword: false })
  })

  it("keeps the password on '', replaces it on a new one, removes it on clearPassword", () => {
    const { db, repo } = repoOnDisk()
    repo.save(smtpConfig(25, { password: 'first' }), 1)
    expect(repo.getResolved().password).toBe('first')
    expect(repo.get()).toMatchObject({ password: '', hasPassword: true })
    repo.save(smtpConfig(26, { password: '' }), 2)
    expect(repo.getResolved()).toMatchObject({ port: 26, password: 'first' })
    repo.save(smtpConfig(26, { password: 'second' }), 3)
    expect(repo.getResolved().password).toBe('second')
    const sealed = db.prepare('SELECT password_enc FROM email_config').pluck().get() as string
    expect(sealed).toMatch(/^v1:/)
    expect(sealed).not.toContain('second')
    repo.save(smtpConfig(26, { password: 'ignored', clearPassword: true }), 4)
    expect(repo.get().hasPassword).toBe(false)
    expect(repo.getResolved().password).toBe('')
  })

  it('reads a row without the later keys with their defaults', () => {
    const { db, repo } = repoOnDisk()
    db.prepare('INSERT INTO email_config (id, json, updated_at) VALUES (1, ?, 1)').run(
      JSON.stringify({ enabled: true, server: 'mail.example.test', port: 465, tls: true }),
    )
    expect(repo.get()).toMatchObject({
      enabled: true,
      server: 'mail.example.test',
      port: 465,
      tls: true,
      rateLimit: 60,
      maxRetries: 3,
      retryDelay: 5,
      to: [],
    })
  })
})
