import { useState, type FormEvent } from 'react'
import { SetupSkippedError, quickSetup, type SetupCredentials } from './auth-store.ts'

/** Spec 001 §9: minimum password length. */
export const MIN_PASSWORD_LENGTH = 8

export type PasswordMode = 'auto' | 'custom'

/** Spec 001 §5 quick setup custom password rules; '' when valid. */
export function customPasswordProblem(password: string, confirm: string): string {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `Password must be at least ${MIN_PASSWORD_LENGTH} characters`
  }
  if (password !== confirm) return 'Passwords do not match'
  return ''
}

export interface QuickSetupFormOptions {
  /** Rotate: replace credentials that already exist. */
  force?: boolean
  /** The username field's first value; 'admin' when empty. */
  defaultUsername?: string
  /** The server said security is already configured; `message` is its text. */
  onSkipped: (message: string) => void
  /** The request failed: `message` is "Failed to setup security: <reason>". */
  onFailed: (message: string) => void
}

/**
 * The quick setup form (spec 001 §4 Quick security setup, §5) shared by the first-run screen and
 * the Security tab's set up / rotate credentials: username, Auto-Generate or Custom password,
 * validation, the request, and the one-time credentials it answers with.
 */
export function useQuickSetupForm({
  force = false,
  defaultUsername = '',
  onSkipped,
  onFailed,
}: QuickSetupFormOptions) {
  const [username, setUsername] = useState(defaultUsername || 'admin')
  const [mode, setMode] = useState<PasswordMode>('auto')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const [credentials, setCredentials] = useState<SetupCredentials | null>(null)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    const name = username.trim()
    if (!name) {
      setError('Username is required')
      return
    }
    if (mode === 'custom') {
      const problem = customPasswordProblem(password, confirm)
      if (problem) {
        setError(problem)
        return
      }
    }
    setError('')
    setBusy(true)
    try {
      const request: { username: string; password?: string; force?: boolean } = { username: name }
      if (mode === 'custom') request.password = password
      if (force) request.force = true
      setCredentials(await quickSetup(request))
      setBusy(false)
    } catch (err) {
      setBusy(false)
      if (err instanceof SetupSkippedError) {
        onSkipped(err.message)
        return
      }
      const reason = err instanceof Error ? err.message : String(err)
      onFailed(`Failed to setup security: ${reason}`)
    }
  }

  return {
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
  }
}
