// The single sign-on configuration service behind GET/PUT /api/security/oidc: stored settings with
// the environment's on top, validation of updates (400 naming the field), read-only env fields
// (FIELD_READ_ONLY), and the answer shape, which never holds the client secret.
import { z } from 'zod'
import { AppError } from '../../shared/model/errors.ts'
import type { OidcPublicSettings } from '../../shared/model/oidc-config.ts'
import { parseBody } from '../parse-body.ts'
import type { OidcConfigRepo } from './oidc-config-repo.ts'
import { roleMappingProblem } from './oidc-roles.ts'
import {
  OIDC_DEFAULTS,
  OIDC_ENV_NAMES,
  OIDC_FIELDS,
  listEntryProblem,
  mergeOidcSettings,
  normaliseList,
  urlProblem,
  withOpenid,
  type OidcEnvOverrides,
  type OidcField,
  type OidcSettings,
} from './oidc-settings.ts'

/** GET /api/security/oidc and the PUT answer (spec 001 §3 OIDC config). */
export interface OidcConfigView extends OidcPublicSettings {
  clientSecretSet: boolean
  defaultRedirect: string
  envOverrides: OidcField[]
}

const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .max(max, `must be at most ${max} characters`)
    .transform((value) => value.trim())

// Lists come as arrays or as one string split on commas and whitespace (spec 001 §5).
const list = z.union([z.string(), z.array(z.string())], { error: 'must be a list of strings' })

export const oidcUpdateSchema = z.object({
  enabled: z.boolean({ error: 'must be true or false' }).optional(),
  issuerUrl: text(2048).optional(),
  clientId: text(512).optional(),
  clientSecret: text(4096).nullable().optional(),
  clearClientSecret: z.boolean({ error: 'must be true or false' }).optional(),
  redirectUrl: text(2048).optional(),
  logoutUrl: text(2048).optional(),
  scopes: list.optional(),
  usernameClaim: text(200).optional(),
  emailClaim: text(200).optional(),
  groupsClaim: text(200).optional(),
  allowedGroups: list.optional(),
  allowedDomains: list.optional(),
  allowedEmails: list.optional(),
  roleMapping: z
    .array(
      z.object({
        group: text(320),
        role: z.string({ error: 'must be a string' }),
      }),
      { error: 'must be a list of {group, role}' },
    )
    .optional(),
  defaultRole: z
    .enum(['viewer', 'operator', 'admin', 'none'], {
      error: 'must be viewer, operator, admin or none',
    })
    .optional(),
})

export type OidcUpdate = z.output<typeof oidcUpdateSchema>

export interface OidcConfigService {
  /** The effective settings (stored, with the environment's on top). */
  settings(): OidcSettings
  /** Fields set by the environment, in field order. */
  envOverrides(): OidcField[]
  view(defaultRedirect: string): OidcConfigView
  /** Validate and store an update body; returns the effective settings. */
  update(body: unknown): OidcSettings
  /** Called after every successful update. */
  onChange(listener: () => void): void
}

export interface OidcConfigDeps {
  repo: OidcConfigRepo
  env: OidcEnvOverrides
  now: () => number
}

function invalid(field: string, problem: string): AppError {
  return new AppError('FIELD_INVALID', { field, problem })
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** The normalised, validated value of one field of an update. */
function fieldValue(
  field: OidcField,
  raw: NonNullable<OidcUpdate[OidcField]>,
): OidcSettings[OidcField] {
  if (typeof raw === 'boolean') return raw
  if (field === 'roleMapping') {
    const mapping = (raw as { group: string; role: string }[]).map((rule) => ({
      group: rule.group,
      role: rule.role.trim().toLowerCase(),
    }))
    const problem = roleMappingProblem(mapping as OidcSettings['roleMapping'])
    if (problem) throw invalid(problem[0] ? `roleMapping.${problem[0]}` : 'roleMapping', problem[1])
    return mapping as OidcSettings['roleMapping']
  }
  if (field === 'defaultRole') return raw as OidcSettings['defaultRole']
  if (field === 'scopes' || field.startsWith('allowed')) {
    const entries = normaliseList(field, typeof raw === 'string' ? [raw] : (raw as string[]))
    for (const entry of entries) {
      const problem = listEntryProblem(field, entry)
      if (problem) throw invalid(field, problem)
    }
    return field === 'scopes' ? withOpenid(entries) : entries
  }
  const value = raw as string
  if (field.endsWith('Claim')) {
    if (value === '') return OIDC_DEFAULTS[field]
    if (/\s/.test(value)) throw invalid(field, 'must not contain spaces')
    return value
  }
  if (field.endsWith('Url') && value !== '') {
    const problem = urlProblem(value, field)
    if (problem) throw invalid(field, problem)
  }
  return value
}

/** Create the configuration service. */
export function createOidcConfigService(deps: OidcConfigDeps): OidcConfigService {
  const { repo, env, now } = deps
  const listeners: Array<() => void> = []
  const overridden = OIDC_FIELDS.filter((field) => env[field] !== undefined)

  const readOnly = (field: OidcField) =>
    new AppError('FIELD_READ_ONLY', { field, name: OIDC_ENV_NAMES[field] })

  const settings = () => mergeOidcSettings(repo.get(), env)

  return {
    settings,
    envOverrides: () => [...overridden],

    view(defaultRedirect) {
      const s = settings()
      return {
        enabled: s.enabled,
        issuerUrl: s.issuerUrl,
        clientId: s.clientId,
        clientSecretSet: s.clientSecret !== '',
        redirectUrl: s.redirectUrl,
        defaultRedirect,
        logoutUrl: s.logoutUrl,
        scopes: s.scopes,
        usernameClaim: s.usernameClaim,
        emailClaim: s.emailClaim,
        groupsClaim: s.groupsClaim,
        allowedGroups: s.allowedGroups,
        allowedDomains: s.allowedDomains,
        allowedEmails: s.allowedEmails,
        roleMapping: s.roleMapping,
        defaultRole: s.defaultRole,
        envOverrides: [...overridden],
      }
    },

    update(body) {
      const input = parseBody(oidcUpdateSchema, body)
      const next: OidcSettings = { ...OIDC_DEFAULTS, ...(repo.get() ?? {}) }
      const target = next as unknown as Record<OidcField, unknown>
      for (const field of OIDC_FIELDS) {
        if (field === 'clientSecret') continue
        const raw = input[field]
        if (raw === undefined) continue
        const value = fieldValue(field, raw)
        if (env[field] !== undefined) {
          // Sending back the value the environment set is harmless (a form echoing the GET).
          if (!sameValue(env[field], value)) throw readOnly(field)
          continue
        }
        target[field] = value
      }

      const newSecret = input.clientSecret ?? ''
      if (newSecret !== '' || input.clearClientSecret === true) {
        if (env.clientSecret !== undefined && newSecret !== env.clientSecret) {
          throw readOnly('clientSecret')
        }
        // A new secret wins over the clear mark (typing one cancels the mark, spec 001 §4).
        if (env.clientSecret === undefined) next.clientSecret = newSecret
      }

      const effective = mergeOidcSettings(next, env)
      if (effective.enabled) {
        const problem = 'is required when single sign-on is enabled'
        if (effective.issuerUrl === '') throw invalid('issuerUrl', problem)
        if (effective.clientId === '') throw invalid('clientId', problem)
      }
      repo.save(next, now())
      for (const listener of listeners) listener()
      return effective
    },

    onChange(listener) {
      listeners.push(listener)
    },
  }
}
