// Secrets at rest: AES-256-GCM under a 32-byte key kept in a 0600 key file beside the database.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

const PREFIX = 'v1:'
export const KEY_FILE = '.encryption.key'

export interface SecretBox {
  encrypt(plain: string): string
  decrypt(sealed: string): string
}

/** Load the key file, creating it with mode 0600 on first start. */
export function loadOrCreateKey(dataDir: string): Buffer {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const file = path.join(dataDir, KEY_FILE)
  try {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64')
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`)
    return key
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  const key = crypto.randomBytes(32)
  // 'wx' fails if another process created it meanwhile: never overwrite a key in use.
  fs.writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' })
  return key
}

/** Encrypt and decrypt short secrets; output is `v1:` + base64(nonce | ciphertext | tag). */
export function createSecretBox(key: Buffer): SecretBox {
  return {
    encrypt(plain) {
      const nonce = crypto.randomBytes(12)
      const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64')
    },
    decrypt(sealed) {
      if (!sealed.startsWith(PREFIX)) throw new Error('unknown secret format')
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64')
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
      decipher.setAuthTag(raw.subarray(raw.length - 16))
      return Buffer.concat([
        decipher.update(raw.subarray(12, raw.length - 16)),
        decipher.final(),
      ]).toString('utf8')
    },
  }
}
