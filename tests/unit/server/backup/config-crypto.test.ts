// The export file format: scrypt + AES-256-GCM, strict parsing, damaged versus wrong passphrase.
import crypto from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../../src/shared/model/errors.ts'
import {
  decodeBase64,
  decryptConfig,
  encryptConfig,
  KDF_PARAMS,
  PAD_BLOCK,
  parseExportFile,
  type ExportFile,
} from '../../../../src/server/backup/config-crypto.ts'

const PASSPHRASE = 'correct horse battery staple'
const PLAINTEXT = JSON.stringify({ version: 1, nodes: [{ tokenValue: 'very-secret-token' }] })
const AT = new Date('2025-03-04T05:06:07.000Z')

let file: ExportFile
beforeAll(async () => {
  file = await encryptConfig(PLAINTEXT, PASSPHRASE, AT)
})

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (err) {
    return err instanceof AppError ? err.code : String(err)
  }
  return undefined
}

async function asyncCodeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise
  } catch (err) {
    return err instanceof AppError ? err.code : String(err)
  }
  return undefined
}

describe('encryptConfig', () => {
  it('writes the contract format', () => {
    expect(file).toEqual({
      format: 'pulse-config',
      version: 1,
      exportedAt: '2025-03-04T05:06:07.000Z',
      kdf: { name: 'scrypt', N: 131072, r: 8, p: 1, salt: expect.any(String) },
      cipher: 'aes-256-gcm',
      iv: expect.any(String),
      data: expect.any(String),
    })
    expect(decodeBase64(file.kdf.salt)).toHaveLength(32)
    expect(decodeBase64(file.iv)).toHaveLength(12)
    // Ciphertext padded to whole blocks, plus the 16-byte tag.
    expect((decodeBase64(file.data)!.length - 16) % PAD_BLOCK).toBe(0)
    expect(JSON.stringify(file)).not.toContain('very-secret-token')
  })

  it('decrypts with standard tools: scrypt then AES-256-GCM over data minus the tag', async () => {
    const { N, r, p } = KDF_PARAMS
    const key = crypto.scryptSync(PASSPHRASE, decodeBase64(file.kdf.salt)!, 32, {
      N,
      r,
      p,
      maxmem: 256 * 1024 * 1024,
    })
    const sealed = decodeBase64(file.data)!
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, decodeBase64(file.iv)!)
    decipher.setAuthTag(sealed.subarray(sealed.length - 16))
    const plain = Buffer.concat([decipher.update(sealed.subarray(0, -16)), decipher.final()])
    expect(JSON.parse(plain.toString('utf8'))).toEqual(JSON.parse(PLAINTEXT))
  })

  it('uses a fresh salt and IV each time', async () => {
    const other = await encryptConfig(PLAINTEXT, PASSPHRASE, AT)
    expect(other.kdf.salt).not.toBe(file.kdf.salt)
    expect(other.iv).not.toBe(file.iv)
    expect(other.data).not.toBe(file.data)
  })
})

describe('scrypt cost', () => {
  it('writes the cost it is given and reads only files at that cost', async () => {
    const cheap = { N: 1024, r: 8, p: 1 }
    const quick = await encryptConfig(PLAINTEXT, PASSPHRASE, AT, cheap)
    expect(quick.kdf).toMatchObject(cheap)
    // The production instance refuses it: a file cannot pick the server's cost.
    expect(codeOf(() => parseExportFile(quick))).toBe('IMPORT_DAMAGED')
    const parsed = parseExportFile(quick, cheap)
    expect(JSON.parse(await decryptConfig(parsed, PASSPHRASE))).toEqual(JSON.parse(PLAINTEXT))
    expect(codeOf(() => parseExportFile(file, cheap))).toBe('IMPORT_DAMAGED')
  })
})

describe('decryptConfig', () => {
  it('round-trips, from the object or its JSON text', async () => {
    expect(JSON.parse(await decryptConfig(parseExportFile(file), PASSPHRASE))).toEqual(
      JSON.parse(PLAINTEXT),
    )
    const fromText = parseExportFile(JSON.stringify(file, null, 2))
    expect(JSON.parse(await decryptConfig(fromText, PASSPHRASE))).toEqual(JSON.parse(PLAINTEXT))
  })

  it('says IMPORT_WRONG_PASSPHRASE for another passphrase or changed bytes', async () => {
    expect(await asyncCodeOf(decryptConfig(parseExportFile(file), 'wrong passphrase!'))).toBe(
      'IMPORT_WRONG_PASSPHRASE',
    )
    const bytes = decodeBase64(file.data)!
    bytes[3] = bytes[3]! ^ 1
    const flipped = parseExportFile({ ...file, data: bytes.toString('base64') })
    expect(await asyncCodeOf(decryptConfig(flipped, PASSPHRASE))).toBe('IMPORT_WRONG_PASSPHRASE')
  })
})

describe('parseExportFile', () => {
  it.each([1, 2, 3, 4, 5, 8, 12, 100])(
    'says IMPORT_DAMAGED when data loses %i characters',
    (cut) => {
      expect(codeOf(() => parseExportFile({ ...file, data: file.data.slice(0, -cut) }))).toBe(
        'IMPORT_DAMAGED',
      )
    },
  )

  it('says IMPORT_DAMAGED for a cut file text', () => {
    const text = JSON.stringify(file)
    expect(codeOf(() => parseExportFile(text.slice(0, text.length / 2)))).toBe('IMPORT_DAMAGED')
  })

  const damaged: Array<[string, (f: ExportFile) => unknown]> = [
    ['not JSON text', () => 'hello'],
    ['an array', () => []],
    ['a number', () => 42],
    ['another format', (f) => ({ ...f, format: 'other' })],
    ['another version', (f) => ({ ...f, version: 2 })],
    ['another cipher', (f) => ({ ...f, cipher: 'aes-128-gcm' })],
    ['a bigger N', (f) => ({ ...f, kdf: { ...f.kdf, N: 2 ** 24 } })],
    ['another KDF', (f) => ({ ...f, kdf: { ...f.kdf, name: 'pbkdf2' } })],
    ['a short salt', (f) => ({ ...f, kdf: { ...f.kdf, salt: 'AAAA' } })],
    ['a short IV', (f) => ({ ...f, iv: 'AAAA' })],
    ['non-base64 data', (f) => ({ ...f, data: `${f.data.slice(0, -4)}!!!!` })],
    ['URL-safe base64', (f) => ({ ...f, data: f.data.replaceAll('+', '-').replaceAll('/', '_') })],
    ['whitespace in data', (f) => ({ ...f, data: ` ${f.data}` })],
    ['a missing field', (f) => ({ ...f, iv: undefined })],
    ['an extra field', (f) => ({ ...f, extra: 1 })],
    ['empty data', (f) => ({ ...f, data: '' })],
  ]
  it.each(damaged)('says IMPORT_DAMAGED for %s', (_name, make) => {
    expect(codeOf(() => parseExportFile(make(file)))).toBe('IMPORT_DAMAGED')
  })
})
