// The configuration export file: the settings JSON encrypted under a passphrase. scrypt
// (N=2^17, r=8, p=1, random 32-byte salt) derives an AES-256-GCM key; a random 12-byte IV; `data`
// is base64 of ciphertext + 16-byte tag. The plaintext is padded with spaces to a multiple of
// PAD_BLOCK bytes, so a cut `data` is told apart from a wrong passphrase by its length (and the
// size of the configuration is blurred).
import crypto from 'node:crypto'
import { z } from 'zod'
import { AppError } from '../../shared/model/errors.ts'

export const EXPORT_FORMAT = 'pulse-config'
export const EXPORT_VERSION = 1
/** The production cost; an instance may be built with another (the tests' cheap one). */
export const KDF_PARAMS = { name: 'scrypt', N: 131_072, r: 8, p: 1 } as const

/** scrypt's cost parameters, written into each file. */
export interface KdfCost {
  N: number
  r: number
  p: number
}
export const CIPHER = 'aes-256-gcm'
const KEY_BYTES = 32
const SALT_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
export const PAD_BLOCK = 256
/** scrypt needs 128 * N * r bytes (128 MiB here); Node's default ceiling is 32 MiB. */
const SCRYPT_MAXMEM = 256 * 1024 * 1024

export interface ExportFile {
  format: typeof EXPORT_FORMAT
  version: typeof EXPORT_VERSION
  exportedAt: string
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string }
  cipher: typeof CIPHER
  iv: string
  data: string
}

/** Canonical base64 of exactly `bytes` bytes (or at least `min` when `bytes` is absent). */
const base64 = (problem: string, size: { bytes?: number; min?: number }) =>
  z.string().refine((value) => {
    const decoded = decodeBase64(value)
    if (!decoded) return false
    if (size.bytes !== undefined) return decoded.length === size.bytes
    return decoded.length >= (size.min ?? 0)
  }, problem)

const fileSchemaFor = (cost: KdfCost) =>
  z.strictObject({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    exportedAt: z.string().max(64),
    kdf: z.strictObject({
      name: z.literal(KDF_PARAMS.name),
      // Only the parameters this instance writes: a file cannot make the server burn memory.
      N: z.literal(cost.N),
      r: z.literal(cost.r),
      p: z.literal(cost.p),
      salt: base64('bad salt', { bytes: SALT_BYTES }),
    }),
    cipher: z.literal(CIPHER),
    iv: base64('bad iv', { bytes: IV_BYTES }),
    data: base64('bad data', { min: TAG_BYTES + PAD_BLOCK }),
  })

/** Strict base64: standard alphabet, padded, and re-encoding gives the same text; else null. */
export function decodeBase64(value: string): Buffer | null {
  if (value.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return null
  const decoded = Buffer.from(value, 'base64')
  return decoded.toString('base64') === value ? decoded : null
}

function damaged(reason: string, cause?: unknown): AppError {
  return new AppError('IMPORT_DAMAGED', {}, { cause: cause ?? new Error(reason) })
}

/**
 * Parse an uploaded file: the export object or its JSON text. Throws IMPORT_DAMAGED (the reason in
 * `cause`, for logs) for anything that is not a whole version-1 export.
 */
export function parseExportFile(input: unknown, cost: KdfCost = KDF_PARAMS): ExportFile {
  let value = input
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input)
    } catch (err) {
      throw damaged('not JSON', err)
    }
  }
  const result = fileSchemaFor(cost).safeParse(value)
  if (!result.success) {
    const issue = result.error.issues[0]
    throw damaged(`${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`)
  }
  const ciphertext = decodeBase64(result.data.data)!.length - TAG_BYTES
  if (ciphertext % PAD_BLOCK !== 0) throw damaged('data has been cut')
  return result.data
}

// One derivation at a time: each holds 128 MiB, and the routes may be called concurrently.
let kdfQueue: Promise<unknown> = Promise.resolve()

/** scrypt at `cost` (runs on the libuv pool, one at a time). */
export function deriveKey(
  passphrase: string,
  salt: Buffer,
  cost: KdfCost = KDF_PARAMS,
): Promise<Buffer> {
  const run = () =>
    new Promise<Buffer>((resolve, reject) => {
      const { N, r, p } = cost
      crypto.scrypt(
        passphrase.normalize('NFC'),
        salt,
        KEY_BYTES,
        { N, r, p, maxmem: SCRYPT_MAXMEM },
        (err, key) => (err ? reject(err) : resolve(key)),
      )
    })
  const result = kdfQueue.then(run, run)
  kdfQueue = result.catch(() => undefined)
  return result
}

/** Encrypt the settings JSON under a passphrase into an export file (scrypt at `cost`). */
export async function encryptConfig(
  plaintext: string,
  passphrase: string,
  exportedAt: Date,
  cost: KdfCost = KDF_PARAMS,
): Promise<ExportFile> {
  const salt = crypto.randomBytes(SALT_BYTES)
  const iv = crypto.randomBytes(IV_BYTES)
  const key = await deriveKey(passphrase, salt, cost)
  const body = Buffer.from(plaintext, 'utf8')
  // Spaces after the JSON: JSON.parse ignores them.
  const padded = Buffer.alloc(Math.ceil((body.length + 1) / PAD_BLOCK) * PAD_BLOCK, 0x20)
  body.copy(padded)
  const cipher = crypto.createCipheriv(CIPHER, key, iv)
  const sealed = Buffer.concat([cipher.update(padded), cipher.final(), cipher.getAuthTag()])
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: exportedAt.toISOString(),
    kdf: { name: KDF_PARAMS.name, N: cost.N, r: cost.r, p: cost.p, salt: salt.toString('base64') },
    cipher: CIPHER,
    iv: iv.toString('base64'),
    data: sealed.toString('base64'),
  }
}

/**
 * Decrypt a parsed export file at the cost it names (parseExportFile accepted only this
 * instance's); IMPORT_WRONG_PASSPHRASE when the GCM tag does not verify.
 */
export async function decryptConfig(file: ExportFile, passphrase: string): Promise<string> {
  const key = await deriveKey(passphrase, decodeBase64(file.kdf.salt)!, file.kdf)
  const sealed = decodeBase64(file.data)!
  const decipher = crypto.createDecipheriv(CIPHER, key, decodeBase64(file.iv)!)
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES))
  try {
    const plain = Buffer.concat([
      decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)),
      decipher.final(),
    ])
    return plain.toString('utf8')
  } catch (err) {
    throw new AppError('IMPORT_WRONG_PASSPHRASE', {}, { cause: err })
  }
}
