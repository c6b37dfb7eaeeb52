import { ChevronDown, ChevronRight, Fingerprint, Loader2, Lock } from 'lucide-react'
import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { refreshSecurityStatus } from '../../auth/security-status.ts'
import { setSsoOffered } from '../../auth/sso.ts'
import { BUTTON, FOCUS_RING } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { Switch } from '../../components/Switch.tsx'
import { showToast } from '../../components/toast-store.ts'
import { TextField } from '../../components/TextField.tsx'
import { Notice } from './fields.tsx'
import { OidcRoleMapping } from './OidcRoleMapping.tsx'
import {
  OIDC_DEFAULTS,
  envVariable,
  formChanged,
  formFromConfig,
  loadOidc,
  oidcProblem,
  saveOidc,
  updateFromForm,
  type OidcConfig,
  type OidcForm,
} from './oidc.ts'

/** Spec 001 §9: the clear-secret toast lasts 2.5 s. */
export const CLEAR_SECRET_TOAST_MS = 2_500

type Load =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'loaded'; config: OidcConfig; version: number }

/**
 * Single sign-on (spec 001 §2, §4 OIDC, §5): enable switch, provider fields, advanced options;
 * read-only when environment variables set any field. Save sends the form; Reset restores what
 * was loaded.
 */
export function OidcPanel() {
  const [load, setLoad] = useState<Load>({ kind: 'loading' })

  const fetchConfig = useCallback(() => {
    setLoad({ kind: 'loading' })
    loadOidc()
      .then((config) => setLoad({ kind: 'loaded', config, version: 0 }))
      .catch((error: unknown) => {
        showToast('Failed to load OIDC settings', 'error')
        const reason = error instanceof Error ? error.message : String(error)
        setLoad({ kind: 'error', message: reason })
      })
  }, [])
  useEffect(fetchConfig, [fetchConfig])

  return (
    <Card
      title="Single sign-on (OIDC)"
      icon={<Fingerprint className="size-4" aria-hidden />}
      description="Sign in through an OpenID Connect provider (Authentik, Keycloak, Authelia, Entra ID...)."
    >
      {load.kind === 'loading' && (
        <p
          role="status"
          className="flex items-center gap-2 text-sm text-gray-600 dark:text-gray-400"
        >
          <Loader2 className="size-4 animate-spin" aria-hidden />
          Loading single sign-on settings...
        </p>
      )}
      {load.kind === 'error' && (
        <div className="flex flex-col items-start gap-2">
          <ErrorPanel>Failed to load OIDC settings: {load.message}</ErrorPanel>
          <button type="button" onClick={fetchConfig} className={BUTTON.secondary}>
            Try again
          </button>
        </div>
      )}
      {load.kind === 'loaded' && (
        <OidcFormView
          // A save starts a fresh form from the saved config.
          key={load.version}
          config={load.config}
          onSaved={(config) => setLoad({ kind: 'loaded', config, version: load.version + 1 })}
        />
      )}
    </Card>
  )
}

function OidcFormView({
  config,
  onSaved,
}: {
  config: OidcConfig
  onSaved: (config: OidcConfig) => void
}) {
  const [form, setForm] = useState<OidcForm>(() => formFromConfig(config))
  const [advanced, setAdvanced] = useState(false)
  const [error, setError] = useState('')
  const [saving, setSaving] = useState(false)
  const readOnly = config.envOverrides.length > 0
  const locked = readOnly || saving
  const changed = formChanged(form, config)
  const set = (patch: Partial<OidcForm>) => setForm((old) => ({ ...old, ...patch }))
  const envHint = (field: string) =>
    config.envOverrides.includes(field) ? `Set by ${envVariable(field)}` : undefined

  const save = async (event: FormEvent) => {
    event.preventDefault()
    if (locked || !changed) return
    const problem = oidcProblem(form)
    if (problem) {
      setError(problem)
      return
    }
    setError('')
    setSaving(true)
    try {
      const saved = await saveOidc(updateFromForm(form))
      showToast('OIDC settings updated', 'success')
      // The login screen after a logout in this tab must offer (or stop offering) SSO at once.
      setSsoOffered(saved.enabled && saved.issuerUrl !== '' && saved.clientId !== '')
      refreshSecurityStatus().catch(() => {})
      onSaved(saved)
    } catch (err) {
      setSaving(false)
      setError(err instanceof Error ? err.message : String(err))
      showToast('Failed to save OIDC settings', 'error')
    }
  }

  const reset = () => {
    setForm(formFromConfig(config))
    setError('')
  }

  const clearSecret = () => {
    set({ clearClientSecret: true, clientSecret: '' })
    showToast('Client secret will be cleared on save', 'info', CLEAR_SECRET_TOAST_MS)
  }

  const secretPlaceholder = form.clearClientSecret
    ? 'Will be cleared on save'
    : config.clientSecretSet
      ? '•••••••• stored (leave blank to keep)'
      : 'Optional with PKCE'

  return (
    <form className="flex flex-col gap-4" onSubmit={(event) => void save(event)} noValidate>
      {readOnly && (
        <Notice
          tone="info"
          icon={<Lock className="size-4" aria-hidden />}
          label="Managed by environment variables"
        >
          These settings are managed by environment variables (
          {config.envOverrides.map(envVariable).join(', ')}). Remove them and restart Pulse to
          configure single sign-on here.
        </Notice>
      )}
      <div className="flex items-center justify-between gap-3">
        <label htmlFor="oidc-enabled" className="text-sm font-medium">
          Enable single sign-on
        </label>
        <Switch
          id="oidc-enabled"
          checked={form.enabled}
          disabled={locked}
          onChange={(enabled) => set({ enabled })}
        />
      </div>

      <fieldset disabled={locked} className="grid min-w-0 gap-4 sm:grid-cols-2">
        <legend className="sr-only">Provider</legend>
        <TextField
          label="Issuer URL"
          id="oidc-issuer"
          type="url"
          inputMode="url"
          placeholder="https://auth.example.com/application/o/pulse/"
          hint={envHint('issuerUrl') ?? 'Required when single sign-on is enabled.'}
          value={form.issuerUrl}
          onChange={(event) => set({ issuerUrl: event.target.value })}
        />
        <TextField
          label="Client ID"
          id="oidc-client-id"
          autoComplete="off"
          spellCheck={false}
          hint={envHint('clientId') ?? 'Required when single sign-on is enabled.'}
          value={form.clientId}
          onChange={(event) => set({ clientId: event.target.value })}
        />
        <div className="flex min-w-0 flex-col gap-1">
          <TextField
            label="Client secret"
            id="oidc-client-secret"
            type="password"
            autoComplete="new-password"
            placeholder={secretPlaceholder}
            hint={
              envHint('clientSecret') ??
              (form.clearClientSecret
                ? 'The stored secret will be cleared when you save.'
                : 'Optional: public clients use PKCE alone.')
            }
            value={form.clientSecret}
            // Typing a new secret cancels the clear mark (spec 001 §4 OIDC).
            onChange={(event) =>
              set({ clientSecret: event.target.value, clearClientSecret: false })
            }
          />
          {!readOnly && config.clientSecretSet && !form.clearClientSecret && !form.clientSecret && (
            <button
              type="button"
              onClick={clearSecret}
              className={`self-start rounded text-xs font-medium text-red-700 underline hover:text-red-800 dark:text-red-400 dark:hover:text-red-300 ${FOCUS_RING}`}
            >
              Clear stored secret
            </button>
          )}
        </div>
        <TextField
          label="Redirect URL"
          id="oidc-redirect"
          type="url"
          inputMode="url"
          placeholder={config.defaultRedirect || 'Auto-detected'}
          hint={envHint('redirectUrl') ?? 'Leave blank to auto-detect.'}
          value={form.redirectUrl}
          onChange={(event) => set({ redirectUrl: event.target.value })}
        />
        <TextField
          label="Logout URL"
          id="oidc-logout"
          type="url"
          inputMode="url"
          placeholder="https://auth.example.com/logout"
          hint={envHint('logoutUrl') ?? 'Leave blank to sign out of Pulse only.'}
          value={form.logoutUrl}
          onChange={(event) => set({ logoutUrl: event.target.value })}
        />
      </fieldset>

      <OidcRoleMapping
        mapping={form.roleMapping}
        defaultRole={form.defaultRole}
        disabled={locked}
        hint={envHint}
        onChange={set}
      />

      <button
        type="button"
        aria-expanded={advanced}
        aria-controls="oidc-advanced"
        onClick={() => setAdvanced(!advanced)}
        className={`inline-flex items-center gap-1 self-start rounded text-sm font-medium text-blue-700 hover:underline dark:text-blue-400 ${FOCUS_RING}`}
      >
        {advanced ? (
          <ChevronDown className="size-4" aria-hidden />
        ) : (
          <ChevronRight className="size-4" aria-hidden />
        )}
        {advanced ? 'Hide advanced OIDC options' : 'Show advanced OIDC options'}
      </button>

      {advanced && (
        <fieldset
          id="oidc-advanced"
          disabled={locked}
          className="grid min-w-0 gap-4 sm:grid-cols-2"
        >
          <legend className="sr-only">Advanced options</legend>
          <TextField
            label="Scopes"
            id="oidc-scopes"
            spellCheck={false}
            placeholder={OIDC_DEFAULTS.scopes.join(' ')}
            hint={envHint('scopes') ?? 'Separated by spaces or commas.'}
            value={form.scopes}
            onChange={(event) => set({ scopes: event.target.value })}
          />
          <TextField
            label="Username claim"
            id="oidc-username-claim"
            spellCheck={false}
            placeholder={OIDC_DEFAULTS.usernameClaim}
            hint={envHint('usernameClaim')}
            value={form.usernameClaim}
            onChange={(event) => set({ usernameClaim: event.target.value })}
          />
          <TextField
            label="Email claim"
            id="oidc-email-claim"
            spellCheck={false}
            placeholder={OIDC_DEFAULTS.emailClaim}
            hint={envHint('emailClaim')}
            value={form.emailClaim}
            onChange={(event) => set({ emailClaim: event.target.value })}
          />
          <TextField
            label="Groups claim"
            id="oidc-groups-claim"
            spellCheck={false}
            placeholder={OIDC_DEFAULTS.groupsClaim}
            hint={envHint('groupsClaim')}
            value={form.groupsClaim}
            onChange={(event) => set({ groupsClaim: event.target.value })}
          />
          <TextField
            label="Allowed groups"
            id="oidc-allowed-groups"
            spellCheck={false}
            placeholder="pulse-admins"
            hint={envHint('allowedGroups') ?? 'Blank allows every group.'}
            value={form.allowedGroups}
            onChange={(event) => set({ allowedGroups: event.target.value })}
          />
          <TextField
            label="Allowed domains"
            id="oidc-allowed-domains"
            spellCheck={false}
            placeholder="example.com"
            hint={envHint('allowedDomains') ?? 'Email domains without @; blank allows any.'}
            value={form.allowedDomains}
            onChange={(event) => set({ allowedDomains: event.target.value })}
          />
          <TextField
            label="Allowed emails"
            id="oidc-allowed-emails"
            spellCheck={false}
            placeholder="admin@example.com"
            hint={envHint('allowedEmails') ?? 'Blank allows any address.'}
            value={form.allowedEmails}
            onChange={(event) => set({ allowedEmails: event.target.value })}
          />
        </fieldset>
      )}

      {error && <ErrorPanel>{error}</ErrorPanel>}

      {!readOnly && (
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={reset}
            disabled={!changed || saving}
            className={`${BUTTON.secondary} justify-center disabled:opacity-60`}
          >
            Reset
          </button>
          <button
            type="submit"
            disabled={!changed || saving}
            className={`${BUTTON.primary} justify-center disabled:opacity-60`}
          >
            {saving && <Loader2 className="size-4 animate-spin" aria-hidden />}
            {saving ? 'Saving...' : 'Save'}
          </button>
        </div>
      )}
    </form>
  )
}
