// Validation of node configuration payloads (spec 001 §5 node rules). Messages name the field.
import { z } from 'zod'
import { AppError } from '../../shared/model/errors.ts'
import { parseBody } from '../parse-body.ts'
import { NODE_TYPES, type NodeType } from '../../shared/model/node-config.ts'
import { isPrintableText, nodeNameProblem } from '../../shared/model/node-name.ts'

const TOKEN_ID = /^[^\s@!]+@[^\s@!]+![A-Za-z0-9][A-Za-z0-9._-]*$/
const USER_ID = /^[^\s@!:]+(@[^\s@!:]+)?$/
const FINGERPRINT = /^([0-9a-f]{2}:?){31}[0-9a-f]{2}$/i

const optionalText = z
  .string()
  .trim()
  .max(512)
  .optional()
  .transform((v) => (v ? v : undefined))

// A blank name means "name it after the host"; anything else must pass the shared name rules.
const nodeName = z
  .string({ error: 'must be a string' })
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .superRefine((v, ctx) => {
    const problem = v === undefined ? undefined : nodeNameProblem(v)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

const flag = z.boolean({ error: 'must be true or false' }).default(true)

export const nodeInputSchema = z.object({
  type: z.enum(NODE_TYPES, { error: 'must be "pve" or "pbs"' }),
  name: nodeName,
  host: z.string({ error: 'is required' }).trim().min(1, 'is required').max(512),
  user: optionalText,
  // Passwords keep their spaces; an empty one is "not given".
  password: z
    .string()
    .max(512)
    .optional()
    .transform((v) => (v ? v : undefined)),
  tokenName: optionalText,
  tokenValue: optionalText,
  fingerprint: optionalText.refine((v) => v === undefined || FINGERPRINT.test(v), {
    message: 'must be a SHA-256 fingerprint (64 hex digits, colons optional)',
  }),
  verifySSL: z.boolean({ error: 'must be true or false' }).default(true),
  monitorVMs: flag,
  monitorContainers: flag,
  monitorStorage: flag,
  monitorBackups: flag,
  monitorDatastores: flag,
  monitorSyncJobs: flag,
  monitorVerifyJobs: flag,
  monitorPruneJobs: flag,
  monitorGarbageJobs: flag,
  /** test-connection only: the stored node whose secrets fill blank secret fields. */
  id: optionalText,
})

export type NodeInput = z.output<typeof nodeInputSchema>

/** Parse a request body; throws FIELD_INVALID naming the first bad field. */
export function parseNodeInput(body: unknown): NodeInput {
  // A client that sends `null` for an empty optional field means "not given".
  const cleaned =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null))
      : body
  return parseBody(nodeInputSchema, cleaned)
}

/**
 * Normalise a host to `https://host:port` (default port 8006 for PVE, 8007 for PBS). Both APIs
 * speak HTTPS only, and the client refuses anything else, so http:// is refused here already.
 * A path, query, fragment or user info is refused rather than dropped (a trailing '/' is fine).
 */
export function normalizeHost(raw: string, type: NodeType): string {
  // The URL parser drops tabs and newlines silently; refuse them (and any invisible character)
  // instead of storing a host that differs from what was typed.
  if (!isPrintableText(raw.replace(/\//g, '')) || /\s/.test(raw)) {
    throw new AppError('FIELD_INVALID', {
      field: 'host',
      problem: 'must not contain spaces, control or invisible characters',
    })
  }
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    throw new AppError('FIELD_INVALID', {
      field: 'host',
      problem: `"${raw.slice(0, 100)}" is not a valid host or URL`,
    })
  }
  if (url.protocol !== 'https:') {
    const problem =
      url.protocol === 'http:'
        ? `${type === 'pbs' ? 'PBS' : 'Proxmox VE'} requires HTTPS`
        : 'must use https://'
    throw new AppError('FIELD_INVALID', { field: 'host', problem })
  }
  if (!url.hostname)
    throw new AppError('FIELD_INVALID', { field: 'host', problem: 'has no hostname' })
  if (url.username || url.password) {
    throw new AppError('FIELD_INVALID', { field: 'host', problem: 'must not contain credentials' })
  }
  // Only scheme, host and port are kept, so anything more would be dropped without a word.
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new AppError('FIELD_INVALID', {
      field: 'host',
      problem: 'must be a host name or address with an optional port, without a path or query',
    })
  }
  if (url.port === '0')
    throw new AppError('FIELD_INVALID', { field: 'host', problem: 'must not use port 0' })
  const port = url.port || (type === 'pbs' ? '8007' : '8006')
  return `${url.protocol}//${url.hostname}:${port}`
}

/** A user id with its realm: `root` becomes root@pam on PVE and root@pbs on PBS. */
export function withRealm(user: string, type: NodeType): string {
  if (!USER_ID.test(user)) {
    throw new AppError('FIELD_INVALID', {
      field: 'user',
      problem: 'must look like user@realm (for example root@pam or admin@pbs)',
    })
  }
  return user.includes('@') ? user : `${user}@${type === 'pbs' ? 'pbs' : 'pam'}`
}

/** A fingerprint in the GUI's format: upper-case hex pairs joined by colons. */
export function formatFingerprint(value: string): string {
  const hex = value.replace(/:/g, '').toUpperCase()
  return hex.match(/../g)!.join(':')
}

/** Resolved credentials of a node: exactly one of token or password is set. */
export interface NodeCredentials {
  user: string | null
  password: string | null
  tokenName: string | null
  tokenValue: string | null
}

/**
 * Work out the credentials of a payload. Blank secrets take the stored ones (`stored`, when
 * editing or testing a stored node); a token clears the password and a password the token.
 * With neither a token ID nor a username, a stored node keeps what it has.
 */
export function resolveCredentials(input: NodeInput, stored?: NodeCredentials): NodeCredentials {
  if (input.tokenName) {
    if (!TOKEN_ID.test(input.tokenName)) {
      throw new AppError('FIELD_INVALID', {
        field: 'tokenName',
        problem: 'must look like user@realm!tokenname',
      })
    }
    const tokenValue = input.tokenValue ?? stored?.tokenValue ?? null
    if (!tokenValue) {
      throw new AppError('FIELD_INVALID', {
        field: 'tokenValue',
        problem: 'Token ID and token value are required',
      })
    }
    return { user: null, password: null, tokenName: input.tokenName, tokenValue }
  }
  if (input.user) {
    const user = withRealm(input.user, input.type)
    const password = input.password ?? stored?.password ?? null
    if (!password) {
      throw new AppError('FIELD_INVALID', {
        field: 'password',
        problem: 'Username and password are required',
      })
    }
    return { user, password, tokenName: null, tokenValue: null }
  }
  // Only the credential fields: `stored` may be a whole StoredNode, and spreading it into the
  // new node would put the stored name and host back over the ones just sent.
  if (stored && (stored.tokenValue || stored.password)) {
    const { user, password, tokenName, tokenValue } = stored
    return { user, password, tokenName, tokenValue }
  }
  throw new AppError('FIELD_INVALID', {
    field: 'tokenName',
    problem: 'give an API token (Token ID and token value) or a username and password',
  })
}
