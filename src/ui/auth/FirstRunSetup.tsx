import { Loader2, ShieldAlert } from 'lucide-react'
import { useState } from 'react'
import { BUTTON } from '../components/button-classes.ts'
import { completeSetup, startAuth } from './auth-store.ts'
import { TextField } from '../components/TextField.tsx'
import { AuthCard, ErrorPanel } from './AuthCard.tsx'
import { CredentialsPanel } from './CredentialsPanel.tsx'
import { MIN_PASSWORD_LENGTH, useQuickSetupForm, type PasswordMode } from './quick-setup-form.ts'

/** Auto-Generate or Custom password (shared with the Security tab's rotate credentials). */
export function ModeChoice({
  mode,
  onChange,
  disabled,
}: {
  mode: PasswordMode
  onChange: (mode: PasswordMode) => void
  disabled: boolean
}) {
  const option = (value: PasswordMode, label: string, hint: string) => (
    <label className="flex cursor-pointer items-start gap-2 rounded-md border border-gray-200 p-2 text-sm has-checked:border-blue-500 has-checked:bg-blue-50 dark:border-gray-700 dark:has-checked:border-blue-400 dark:has-checked:bg-blue-950">
      <input
        type="radio"
        name="password-mode"
        value={value}
        checked={mode === value}
        disabled={disabled}
        onChange={() => onChange(value)}
        className="mt-0.5 accent-blue-600"
      />
      <span className="flex flex-col">
        <span className="font-medium">{label}</span>
        <span className="text-xs text-gray-600 dark:text-gray-400">{hint}</span>
      </span>
    </label>
  )
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-gray-700 dark:text-gray-300">
        Password
      </legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {option('auto', 'Auto-Generate', 'A strong 16-character password')}
        {option('custom', 'Custom password', `At least ${MIN_PASSWORD_LENGTH} characters`)}
      </div>
    </fieldset>
  )
}

/**
 * First run (spec 001 §2 Login screen, §4 Quick security setup): no authentication is configured,
 * so the user creates the admin account, then sees the credentials once.
 */
export function FirstRunSetup() {
  const [skipped, setSkipped] = useState(false)
  const {
    username,
    setUsername,
    mode,
    setMode,
    password,
    setPassword,
    confirm,
    setConfirm,
    error,
    setError,
    busy,
    credentials,
    submit,
  } = useQuickSetupForm({
    onSkipped: (message) => {
      setSkipped(true)
      setError(message)
    },
    onFailed: (message) => setError(message),
  })

  if (credentials) {
    return (
      <AuthCard title="Save your credentials" wide>
        <CredentialsPanel
          credentials={credentials}
          generated={mode === 'auto'}
          onDone={() => completeSetup(credentials.username)}
        />
      </AuthCard>
    )
  }

  return (
    <AuthCard title="Secure Pulse" wide>
      <div className="mb-4 flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-800 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
        <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>
          No authentication is configured yet. Create the administrator account to protect this
          dashboard; you are signed in as soon as it is created.
        </span>
      </div>
      <form className="flex flex-col gap-4" onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Username"
          id="setup-username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={username}
          disabled={busy}
          onChange={(event) => setUsername(event.target.value)}
        />
        <ModeChoice mode={mode} onChange={setMode} disabled={busy} />
        {mode === 'custom' && (
          <>
            <TextField
              label="New password"
              id="setup-password"
              name="new-password"
              type="password"
              autoComplete="new-password"
              value={password}
              disabled={busy}
              onChange={(event) => setPassword(event.target.value)}
            />
            <TextField
              label="Confirm password"
              id="setup-confirm"
              name="confirm-password"
              type="password"
              autoComplete="new-password"
              value={confirm}
              disabled={busy}
              onChange={(event) => setConfirm(event.target.value)}
            />
          </>
        )}
        {error && (
          <ErrorPanel>
            <span>{error}</span>
            {skipped && (
              <button
                type="button"
                onClick={() => void startAuth()}
                className="ml-2 font-medium underline"
              >
                Go to sign in
              </button>
            )}
          </ErrorPanel>
        )}
        <button
          type="submit"
          disabled={busy}
          className={`${BUTTON.primary} justify-center py-2 disabled:opacity-60`}
        >
          {busy && <Loader2 className="size-4 animate-spin" aria-hidden />}
          {busy ? 'Setting up...' : 'Set up security'}
        </button>
      </form>
    </AuthCard>
  )
}
