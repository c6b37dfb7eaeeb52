// The API tokens of a config snapshot (issue 29 item 8): each token's name, role, SHA-256 digest,
// hint and times; never a token's value, which is not stored. A file from before named tokens
// has none: its login settings' single token then becomes the admin token "default" again, as
// the migration does.
import { z } from 'zod'
import { API_TOKENS_MAX, API_TOKEN_NAME_MAX } from '../../shared/model/api-tokens.ts'
import { ROLES } from '../../shared/model/roles.ts'
import type { StoredApiToken } from '../store/api-tokens-repo.ts'
import { createApiTokensRepo } from '../store/api-tokens-repo.ts'
import type { AnySection, SectionHandler } from './config-sections.ts'

const time = z.number().int().min(0)

const tokenSchema: z.ZodType<StoredApiToken> = z.strictObject({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(API_TOKEN_NAME_MAX),
  role: z.enum(ROLES),
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 digest'),
  hint: z.string().max(100),
  createdAt: time,
  lastUsedAt: time.nullable(),
})

/** Duplicates the table's unique columns refuse. */
function refuseDuplicates(tokens: StoredApiToken[], ctx: z.RefinementCtx): void {
  for (const key of ['id', 'name', 'hash'] as const) {
    const seen = new Set<string>()
    tokens.forEach((token, index) => {
      if (seen.has(token[key])) {
        ctx.addIssue({ code: 'custom', message: `duplicate ${key}`, path: [index] })
      }
      seen.add(token[key])
    })
  }
}

const apiTokensSection: SectionHandler<StoredApiToken[]> = {
  key: 'apiTokens',
  tables: ['api_tokens', 'auth_settings'],
  optional: true,
  schema: z.array(tokenSchema).max(API_TOKENS_MAX).superRefine(refuseDuplicates),
  read: ({ db }) => createApiTokensRepo(db).list(),
  write({ db }, tokens) {
    db.prepare('DELETE FROM api_tokens').run()
    if (tokens === undefined) {
      // Written after the login settings: their token is the file's.
      db.prepare(
        `INSERT INTO api_tokens (id, name, role, hash, hint, created_at, last_used_at)
         SELECT lower(hex(randomblob(16))), 'default', 'admin', api_token_hash, api_token_hint,
           updated_at, NULL
         FROM auth_settings WHERE api_token_hash IS NOT NULL`,
      ).run()
      return
    }
    const insert = db.prepare(
      `INSERT INTO api_tokens (id, name, role, hash, hint, created_at, last_used_at)
       VALUES (@id, @name, @role, @hash, @hint, @createdAt, @lastUsedAt)`,
    )
    for (const token of tokens) insert.run(token)
  },
  describe: (tokens) => `${tokens.length} API token(s)`,
}

/** The token section, after the login settings in SECTIONS. */
export const TOKEN_SECTIONS: readonly AnySection[] = [apiTokensSection as unknown as AnySection]
