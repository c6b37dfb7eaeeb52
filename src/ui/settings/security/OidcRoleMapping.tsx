import { Plus, X } from 'lucide-react'
import type { OidcDefaultRole, OidcRoleRule } from '../../../shared/model/oidc-config.ts'
import { ROLES, type Role } from '../../../shared/model/roles.ts'
import { BUTTON, FOCUS_RING } from '../../components/button-classes.ts'
import { INPUT } from '../../components/TextField.tsx'

const DEFAULT_ROLE_LABELS: Readonly<Record<OidcDefaultRole, string>> = {
  viewer: 'viewer',
  operator: 'operator',
  admin: 'admin',
  none: 'none (refuse the sign-in)',
}

/**
 * The single sign-on roles of the OIDC panel (issue 29 item 3): group → role rows with add and
 * remove, and the role of a user in no mapped group. Saved with the panel's Save.
 */
export function OidcRoleMapping({
  mapping,
  defaultRole,
  disabled,
  hint,
  onChange,
}: {
  mapping: readonly OidcRoleRule[]
  defaultRole: OidcDefaultRole
  disabled: boolean
  /** Set by the environment, when it is. */
  hint: (field: 'roleMapping' | 'defaultRole') => string | undefined
  onChange: (patch: { roleMapping?: OidcRoleRule[]; defaultRole?: OidcDefaultRole }) => void
}) {
  const setRule = (index: number, patch: Partial<OidcRoleRule>) =>
    onChange({
      roleMapping: mapping.map((rule, i) => (i === index ? { ...rule, ...patch } : rule)),
    })
  const remove = (index: number) => onChange({ roleMapping: mapping.filter((_, i) => i !== index) })
  const add = () => onChange({ roleMapping: [...mapping, { group: '', role: 'viewer' }] })

  return (
    <fieldset disabled={disabled} className="flex min-w-0 flex-col gap-3">
      <legend className="mb-1 text-sm font-medium">Roles</legend>
      <p id="oidc-roles-hint" className="text-xs text-gray-600 dark:text-gray-400">
        {hint('roleMapping') ??
          'Members of a group (from the groups claim) get its role; the highest one counts. Read at each sign-in.'}
      </p>
      {mapping.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Group roles">
          {mapping.map((rule, index) => (
            // Rows have no identity of their own; the index is stable while editing.
            <li key={index} className="flex min-w-0 flex-wrap items-center gap-2">
              <label htmlFor={`oidc-role-group-${index}`} className="sr-only">
                Group {index + 1}
              </label>
              <input
                id={`oidc-role-group-${index}`}
                className={`${INPUT} min-w-0 flex-1 basis-40`}
                spellCheck={false}
                placeholder="pulse-operators"
                value={rule.group}
                onChange={(event) => setRule(index, { group: event.target.value })}
              />
              <label htmlFor={`oidc-role-role-${index}`} className="sr-only">
                Role of group {index + 1}
              </label>
              <select
                id={`oidc-role-role-${index}`}
                className={`${INPUT} w-auto`}
                value={rule.role}
                onChange={(event) => setRule(index, { role: event.target.value as Role })}
              >
                {ROLES.map((role) => (
                  <option key={role} value={role}>
                    {role}
                  </option>
                ))}
              </select>
              <button
                type="button"
                onClick={() => remove(index)}
                aria-label={`Remove group ${rule.group || index + 1}`}
                className={`rounded p-1.5 text-gray-600 hover:bg-gray-100 hover:text-red-700 dark:text-gray-400 dark:hover:bg-gray-700 dark:hover:text-red-400 ${FOCUS_RING}`}
              >
                <X className="size-4" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" onClick={add} className={`${BUTTON.secondary} self-start`}>
        <Plus className="size-4" aria-hidden />
        Add group
      </button>
      <div className="flex min-w-0 flex-col gap-1 sm:max-w-xs">
        <label
          htmlFor="oidc-default-role"
          className="text-sm font-medium text-gray-700 dark:text-gray-300"
        >
          Role of a user in no mapped group
        </label>
        <select
          id="oidc-default-role"
          className={INPUT}
          aria-describedby="oidc-default-role-hint"
          value={defaultRole}
          onChange={(event) => onChange({ defaultRole: event.target.value as OidcDefaultRole })}
        >
          {(Object.keys(DEFAULT_ROLE_LABELS) as OidcDefaultRole[]).map((role) => (
            <option key={role} value={role}>
              {DEFAULT_ROLE_LABELS[role]}
            </option>
          ))}
        </select>
        <p id="oidc-default-role-hint" className="text-xs text-gray-600 dark:text-gray-400">
          {hint('defaultRole') ?? 'admin keeps single sign-on as it was before roles.'}
        </p>
      </div>
    </fieldset>
  )
}
