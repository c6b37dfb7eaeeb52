// Configuration export and import (spec 001 §5, §7): every setting encrypted under a passphrase,
// and back in one transaction. Admin only (a reverse-proxy user needs the admin role); 5 calls per
// 5 minutes per IP across both routes; audited. Answers and logs never hold a secret.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { AppError } from '../../shared/model/errors.ts'
import type { AuthService } from '../auth/auth-service.ts'
import { requireAdmin } from '../auth/guard.ts'
import type { RateLimits } from '../auth/rate-limits.ts'
import { verifyPassword } from '../auth/secrets.ts'
import {
  decryptConfig,
  encryptConfig,
  parseExportFile,
  type KdfCost,
} from '../backup/config-crypto.ts'
import {
  describeSnapshot,
  parseSnapshot,
  readSnapshot,
  writeSnapshot,
  type SnapshotContext,
} from '../backup/config-snapshot.ts'
import type { Db } from '../store/db.ts'
import type { SecretBox } from '../store/secret-box.ts'
import { parseBody } from '../parse-body.ts'

export const BACKUP_RATE_LIMIT = 5
export const BACKUP_RATE_WINDOW_MS = 5 * 60_000
/** Custom export passphrases need this many characters (the login password is always fine). */
export const MIN_CUSTOM_PASSPHRASE = 12
const MAX_PASSPHRASE = 1024
/** An export holds every guest's metadata: allow more than the default 1 MiB body. */
export const IMPORT_BODY_LIMIT = 16 * 1024 * 1024

const passphrase = (problem: string) =>
  z
    .string({ error: problem })
    .min(1, problem)
    .max(MAX_PASSPHRASE, `must be at most ${MAX_PASSPHRASE} characters`)

export const exportInputSchema = z.object({ passphrase: passphrase('please enter a passphrase') })

export const importInputSchema = z.object({
  passphrase: passphrase('please enter the password'),
  // The file's object or its text; what it holds is checked by parseExportFile.
  data: z.unknown().refine((v) => v !== undefined && v !== null && v !== '', {
    message: 'please select a file to import',
  }),
})

export interface ConfigBackupDeps {
  db: Db
  /** This instance's secret box. */
  box: SecretBox
  auth: AuthService
  now: () => number
  /** After an import: apply the new settings to what runs (the poller's nodes, ...). */
  onImported: () => void
  /** scrypt cost of the files (default the production KDF_PARAMS; tests pass a cheap one). */
  kdfCost?: KdfCost
  /** Where the routes' limit (5 per 5 minutes per IP, both routes together) comes from. */
  rateLimits: RateLimits
}

/** `attachment; filename="pulse-config-YYYY-MM-DD.json"` (UTC date). */
export function exportFileName(at: number): string {
  return `pulse-config-${new Date(at).toISOString().slice(0, 10)}.json`
}

/** Register POST /api/config/export and POST /api/config/import. */
export function registerConfigBackupRoutes(app: FastifyInstance, deps: ConfigBackupDeps): void {
  const { db, box, auth, now } = deps
  const context = (): SnapshotContext => ({ db, box, now: now() })

  // Route-level onRequest: after the guard (unauthenticated callers get 401 and are not counted),
  // before the body is read. One limit for both routes.
  const rateLimit = deps.rateLimits.route(BACKUP_RATE_LIMIT, BACKUP_RATE_WINDOW_MS)

  /** The login password, or a custom passphrase of at least 12 characters. */
  const checkExportPassphrase = async (value: string) => {
    if ([...value].length >= MIN_CUSTOM_PASSPHRASE) return
    const settings = auth.settings()
    if (settings && (await verifyPassword(settings.passwordHash, value))) return
    throw new AppError('FIELD_INVALID', {
      field: 'passphrase',
      problem: `use your login password or at least ${MIN_CUSTOM_PASSPHRASE} characters`,
    })
  }

  app.post('/api/config/export', { onRequest: rateLimit }, async (request, reply) => {
    const caller = requireAdmin(request)
    reply.header('Cache-Control', 'no-store')
    const input = parseBody(exportInputSchema, request.body)
    await checkExportPassphrase(input.passphrase)
    const ctx = context()
    const snapshot = readSnapshot(ctx)
    const file = await encryptConfig(
      JSON.stringify(snapshot),
      input.passphrase,
      new Date(ctx.now),
      deps.kdfCost,
    )
    auth.audit.record({
      type: 'config_export',
      username: caller.username,
      ip: request.ip,
      detail: describeSnapshot(snapshot),
    })
    reply.header('Content-Disposition', `attachment; filename="${exportFileName(ctx.now)}"`)
    return file
  })

  app.post(
    '/api/config/import',
    { onRequest: rateLimit, bodyLimit: IMPORT_BODY_LIMIT },
    async (request, reply) => {
      const caller = requireAdmin(request)
      reply.header('Cache-Control', 'no-store')
      const input = parseBody(importInputSchema, request.body)
      const ctx = context()
      let summary: string
      let revoked = 0
      try {
        const file = parseExportFile(input.data, deps.kdfCost)
        const snapshot = parseSnapshot(await decryptConfig(file, input.passphrase))
        // The caller keeps their session; every other one ends with the old settings.
        const keep = caller.method === 'session' ? (caller.sessionIdHash ?? null) : null
        writeSnapshot(ctx, snapshot, {
          alsoInTransaction: () => {
            revoked = db
              .prepare(
                'UPDATE sessions SET revoked_at = ? WHERE revoked_at IS NULL AND id_hash IS NOT ?',
              )
              .run(ctx.now, keep).changes
          },
        })
        summary = describeSnapshot(snapshot)
      } catch (err) {
        if (err instanceof AppError && err.code.startsWith('IMPORT_')) {
          const reason = err.cause instanceof Error ? err.cause.message : err.code
          request.log.info({ reason }, 'config import refused')
          auth.audit.record({
            type: 'config_import_failed',
            username: caller.username,
            ip: request.ip,
            detail: err.code === 'IMPORT_WRONG_PASSPHRASE' ? 'wrong passphrase' : 'damaged file',
          })
        }
        throw err
      }
      // The users table was rewritten: roles are read afresh; the ended sessions' sockets close.
      auth.users.invalidate()
      auth.sockets.revoke({
        kind: 'sessions',
        ...(caller.sessionIdHash === undefined ? {} : { except: caller.sessionIdHash }),
        reason: 'Configuration imported',
      })
      deps.onImported()
      auth.audit.record({
        type: 'config_import',
        username: caller.username,
        ip: request.ip,
        detail: `${summary}; ${revoked} other session(s) revoked`,
      })
      return { status: 'success', message: 'Configuration imported successfully' }
    },
  )
}
