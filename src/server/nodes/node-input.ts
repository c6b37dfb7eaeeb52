// Validation of node configuration payloads (spec 001 §5 node rules). Messages name the field.
import { z } from 'zod'
import { AppError } from '../../shared/model/errors.ts'
import { parseBody } from '../parse-body.ts'
import { NODE_TYPES, type NodeType } from '../../shared/model/node-config.ts'

const TOKEN_ID = /^[^\s@!]+@[^\s@!]+![A-Za-z0-9][A-Za-z0-9._-]*$/
const FINGERPRINT = /^([0-9a-f]{2}:?){31}[0-9a-f]{2}$/i

const optionalText = z
  .string()
  .trim()
  .max(512)
  .optional()
  .transform((v) => (v ? v : undefined))

export const nodeInputSchema = z.object({
  type: z.enum(NODE_TYPES, { error: 'must be "pve" or "pbs"' }),
  name: optionalText,
  host: z.string({ error: 'is required' }).trim().min(1, 'is required').max(512),
  user: optionalText,
  password: z.string().max(512).optional(),
  tokenName: optionalText,
  tokenValue: z.string().trim().max(512).optional(),
  fingerprint: optionalText.refine((v) => v === undefined || FINGERPRINT.test(v), {
    message: 'must be a SHA-256 fingerprint (64 hex digits, colons optional)',
  }),
  verifySSL: z.boolean({ error: 'must be true or false' }).default(true),
  monitorVMs: z.boolean().default(true),
  monitorContainers: z.boolean().default(true),
  monitorStorage: z.boolean().default(true),
  monitorBackups: z.boolean().default(true),
})

export type NodeInput = z.output<typeof nodeInputSchema>

/** Parse a request body; throws FIELD_INVALID naming the first bad field. */
export function parseNodeInput(body: unknown): NodeInput {
  return parseBody(nodeInputSchema, body)
}

/** Normalise a host to `https://host:port` (default port 8006 for PVE, 8007 for PBS). */
export function normalizeHost(raw: string, type: NodeType): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    throw new AppError('FIELD_INVALID', {
      field: 'host',
      problem: `"${raw}" is not a valid host or URL`,
    })
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && type === 'pve')) {
    throw new AppError('FIELD_INVALID', {
      field: 'host',
      problem:
        type === 'pbs' ? 'Proxmox Backup Server requires https://' : 'must use https:// or http://',
    })
  }
  if (!url.hostname)
    throw new AppError('FIELD_INVALID', { field: 'host', problem: 'has no hostname' })
  if (url.username || url.password) {
    throw new AppError('FIELD_INVALID', { field: 'host', problem: 'must not contain credentials' })
  }
  const port = url.port || (type === 'pbs' ? '8007' : '8006')
  return `${url.protocol}//${url.hostname}:${port}`
}

/** Check credentials: a token (id user@realm!name plus value) or a username with a password. */
export function checkCredentials(
  input: NodeInput,
  existing?: { hasToken: boolean; hasPassword: boolean },
) {
  if (input.tokenName) {
    if (!TOKEN_ID.test(input.tokenName)) {
      throw new AppError('FIELD_INVALID', {
        field: 'tokenName',
        problem: 'must look like user@realm!tokenname',
      })
    }
    if (!input.tokenValue && !existing?.hasToken) {
      throw new AppError('FIELD_INVALID', {
        field: 'tokenValue',
        problem: 'is required with a token ID',
      })
    }
    return 'token' as const
  }
  if (input.user) {
    if (!input.user.includes('@')) {
      throw new AppError('FIELD_INVALID', {
        field: 'user',
        problem: 'needs a realm, like root@pam',
      })
    }
    if (!input.password && !existing?.hasPassword) {
      throw new AppError('FIELD_INVALID', {
        field: 'password',
        problem: 'is required with a username',
      })
    }
    return 'password' as const
  }
  throw new AppError('FIELD_INVALID', {
    field: 'tokenName',
    problem: 'give an API token (tokenName and tokenValue) or a username and password',
  })
}
