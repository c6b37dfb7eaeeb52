import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createSecretBox,
  KEY_FILE,
  loadOrCreateKey,
} from '../../../../src/server/store/secret-box.ts'
import { makeTempDir } from '../temp-dir.ts'

let cleanup = () => {}
afterEach(() => cleanup())

describe('secret box', () => {
  it('creates the key file with mode 0600 and reuses it on the next start', () => {
    const tmp = makeTempDir()
    cleanup = tmp.cleanup
    const key = loadOrCreateKey(tmp.dir)
    const stat = fs.statSync(path.join(tmp.dir, KEY_FILE))
    expect(stat.mode & 0o777).toBe(0o600)
    expect(loadOrCreateKey(tmp.dir).equals(key)).toBe(true)
  })

  it('round-trips a secret and never outputs the plain text', () => {
    const box = createSecretBox(Buffer.alloc(32, 7))
    const sealed = box.encrypt('3f6c1e9a-5b2d-4c1e-9f0a-7d2b8c4e1a55')
    expect(sealed.startsWith('v1:')).toBe(true)
    expect(sealed).not.toContain('3f6c1e9a')
    expect(box.decrypt(sealed)).toBe('3f6c1e9a-5b2d-4c1e-9f0a-7d2b8c4e1a55')
    // A fresh nonce each time: equal secrets do not give equal ciphertexts.
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'))
  })

  it('rejects a tampered or foreign ciphertext', () => {
    const box = createSecretBox(Buffer.alloc(32, 7))
    const sealed = box.encrypt('secret')
    const raw = Buffer.from(sealed.slice(3), 'base64')
    raw[14] = raw[14]! ^ 1
    expect(() => box.decrypt('v1:' + raw.toString('base64'))).toThrow()
    expect(() => createSecretBox(Buffer.alloc(32, 8)).decrypt(sealed)).toThrow()
    expect(() => box.decrypt('plain')).toThrow(/unknown secret format/)
  })

  it('refuses a key file of the wrong length', () => {
    const tmp = makeTempDir()
    cleanup = tmp.cleanup
    fs.writeFileSync(path.join(tmp.dir, KEY_FILE), Buffer.alloc(16).toString('base64'))
    expect(() => loadOrCreateKey(tmp.dir)).toThrow(/32-byte/)
  })
})
