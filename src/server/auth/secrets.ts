// Secret material: argon2id password hashes, random tokens and passwords, SHA-256 digests compared
// in constant time, and the token hint shown in the UI.
import crypto from 'node:crypto'
import { hash, verify, type Algorithm } from '@node-rs/argon2'

/** @node-rs/argon2's `Algorithm` is an ambient const enum; 2 is Argon2id. */
const ARGON2ID = 2 as Algorithm
/** OWASP's argon2id minimum (also the library default): 19 MiB, 2 passes, 1 lane. */
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 }

export const PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'
export const GENERATED_PASSWORD_LENGTH = 16
export const API_TOKEN_BYTES = 24

/** Hash a password with argon2id (PHC string, salt included). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS)
}

/** Verify a password against an argon2 PHC string; false (never throws) on a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}

/** A hash of a random password: verifying against it costs the same as a real check. */
let decoyHash: Promise<string> | null = null
/** Burn one argon2 verification, so an unknown username takes as long as a wrong password. */
export async function verifyDecoy(password: string): Promise<void> {
  decoyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'))
  await verifyPassword(await decoyHash, password)
}

/** 16 characters from [A-Za-z0-9_-]; randomInt draws without modulo bias. */
export function generatePassword(length = GENERATED_PASSWORD_LENGTH): string {
  let out = ''
  for (let i = 0; i < length; i++)
    out += PASSWORD_ALPHABET[crypto.randomInt(PASSWORD_ALPHABET.length)]
  return out
}

/** 24 random bytes as 48 hex characters. */
export function generateApiToken(): string {
  return crypto.randomBytes(API_TOKEN_BYTES).toString('hex')
}

/** 32 random bytes, base64url: session ids and CSRF tokens. */
export function generateOpaqueId(): string {
  return crypto.randomBytes(32).toString('base64url')
}

/** SHA-256 as lowercase hex. */
export function sha256Hex(text: string): string {
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex')
}

/** Constant-time check that SHA-256(candidate) equals a stored SHA-256 hex digest. */
export function matchesDigest(candidate: string, storedHex: string): boolean {
  const actual = crypto.createHash('sha256').update(candidate, 'utf8').digest()
  const expected = Buffer.from(storedHex, 'hex')
  return expected.length === actual.length && crypto.timingSafeEqual(actual, expected)
}

/** Constant-time equality of two strings of any length (compares their digests). */
export function safeEqual(a: string, b: string): boolean {
  return matchesDigest(a, sha256Hex(b))
}

/** Spec 001 §4: first 8 + '...' + last 4 when the token has >= 20 characters; else no hint. */
export function tokenHint(token: string): string {
  return token.length >= 20 ? `${token.slice(0, 8)}...${token.slice(-4)}` : ''
}
