import { Loader2, Mail, Save, Send } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import type { EmailProvider } from '../../../shared/model/notifications.ts'
import { roleReason, useRole } from '../../auth/useRole.ts'
import { BUTTON } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { Switch } from '../../components/Switch.tsx'
import { INPUT } from '../../components/TextField.tsx'
import { showToast } from '../../components/toast-store.ts'
import {
  CUSTOM_PROVIDER,
  afterSave,
  applyProvider,
  toEmailConfig,
  toEmailForm,
  validateEmail,
  type EmailField,
  type EmailForm,
} from './email-form.ts'
import { EmailFields } from './EmailFields.tsx'
import { errorText, loadEmail, loadProviders, saveEmail, testEmail } from './notifications-api.ts'

/**
 * The Email (SMTP) card (spec 001 §2 Alerts: notifications). It saves on its own Save button,
 * apart from the alert config's unsaved-changes bar: email settings are their own resource
 * (PUT /api/notifications/email), so the card carries its own "unsaved" marker.
 */
export function EmailCard() {
  // Issue 29 item 6: an operator sends a test email; changing the settings needs an admin.
  const admin = useRole().can('admin')
  const [saved, setSaved] = useState<EmailForm | null>(null)
  const [form, setForm] = useState<EmailForm | null>(null)
  const [loadError, setLoadError] = useState('')
  const [providers, setProviders] = useState<EmailProvider[]>([])
  const [busy, setBusy] = useState<'save' | 'test' | null>(null)
  const [touched, setTouched] = useState(false)
  const providerId = useId()

  useEffect(() => {
    let alive = true
    loadEmail().then(
      (config) => {
        if (!alive) return
        const loaded = toEmailForm(config)
        setSaved(loaded)
        setForm(loaded)
      },
      (error: unknown) => {
        if (alive) setLoadError(errorText(error, 'Failed to load email settings'))
      },
    )
    // Spec 001 §8: a provider list that fails to load is only logged; custom SMTP still works.
    loadProviders().then(
      (list) => alive && setProviders(list),
      (error: unknown) => console.error('Failed to load email providers', error),
    )
    return () => {
      alive = false
    }
  }, [])

  if (!form || !saved) {
    return (
      <Card title="Email (SMTP)" icon={<Mail className="size-4" aria-hidden />}>
        <p role="status" className="text-sm text-gray-600 dark:text-gray-400">
          {loadError || 'Loading email settings...'}
        </p>
      </Card>
    )
  }

  const errors = touched ? validateEmail(form) : {}
  const dirty = JSON.stringify(form) !== JSON.stringify(saved)
  const set = <K extends EmailField>(field: K, value: EmailForm[K]) =>
    setForm((current) => (current ? { ...current, [field]: value } : current))

  const checked = (): boolean => {
    setTouched(true)
    const found = validateEmail(form)
    const first = Object.keys(found)[0]
    if (first) {
      document.getElementById(`email-${first}`)?.focus()
      return false
    }
    return true
  }

  const save = async () => {
    if (!checked()) return
    setBusy('save')
    try {
      await saveEmail(toEmailConfig(form))
      const kept = afterSave(form)
      setSaved(kept)
      setForm(kept)
      setTouched(false)
      showToast('Email settings saved', 'success')
    } catch (error) {
      showToast(`Failed to save email settings: ${errorText(error, 'unknown error')}`, 'error')
    } finally {
      setBusy(null)
    }
  }

  const test = async () => {
    if (!checked()) return
    setBusy('test')
    try {
      await testEmail(toEmailConfig(form))
      showToast('Test email sent successfully! (Check your inbox.)', 'success')
    } catch (error) {
      showToast(`Failed to send test email: ${errorText(error, 'unknown error')}`, 'error')
    } finally {
      setBusy(null)
    }
  }

  const provider = providers.find((item) => item.name === form.provider)
  return (
    <Card
      title="Email (SMTP)"
      icon={<Mail className="size-4" aria-hidden />}
      description="Alerts by email: one message per group, with a plain-text and an HTML body."
      actions={
        <div className="flex items-center gap-2">
          <Switch
            checked={form.enabled}
            onChange={(value) => set('enabled', value)}
            label="Email notifications"
            disabled={!admin}
          />
          <span className="text-sm text-gray-700 dark:text-gray-300">
            {form.enabled ? 'Enabled' : 'Disabled'}
          </span>
        </div>
      }
    >
      <form
        noValidate
        aria-label="Email settings"
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault()
          void save()
        }}
      >
        {/* An operator sees the settings and sends a test; only an admin changes them. */}
        <fieldset
          disabled={!admin}
          title={admin ? undefined : roleReason('admin')}
          className="m-0 flex min-w-0 flex-col gap-3 border-0 p-0"
        >
          <div className="flex min-w-0 flex-col gap-1">
            <label
              htmlFor={providerId}
              className="text-sm font-medium text-gray-700 dark:text-gray-300"
            >
              Email provider
            </label>
            <select
              id={providerId}
              className={INPUT}
              value={form.provider}
              onChange={(event) => {
                const name = event.target.value
                const picked = providers.find((item) => item.name === name)
                setForm((current) =>
                  current ? applyProvider(current, picked ?? { ...customProvider, name }) : current,
                )
              }}
            >
              {!providers.some((item) => item.name === CUSTOM_PROVIDER) && (
                <option value={CUSTOM_PROVIDER}>{CUSTOM_PROVIDER}</option>
              )}
              {providers.map((item) => (
                <option key={item.name} value={item.name}>
                  {item.name}
                </option>
              ))}
            </select>
            {provider?.instructions && (
              <p className="text-xs text-gray-600 dark:text-gray-400">{provider.instructions}</p>
            )}
          </div>
          <EmailFields form={form} errors={errors} set={set} />
        </fieldset>
        <div className="flex flex-wrap items-center gap-2">
          {admin && (
            <button
              type="submit"
              disabled={busy !== null || !dirty}
              className={`${BUTTON.primary} disabled:opacity-60`}
            >
              {busy === 'save' ? (
                <Loader2 className="size-4 animate-spin" aria-hidden />
              ) : (
                <Save className="size-4" aria-hidden />
              )}
              {busy === 'save' ? 'Saving...' : 'Save email settings'}
            </button>
          )}
          <button
            type="button"
            disabled={busy !== null}
            onClick={() => void test()}
            className={`${BUTTON.secondary} disabled:opacity-60`}
          >
            {busy === 'test' ? (
              <Loader2 className="size-4 animate-spin" aria-hidden />
            ) : (
              <Send className="size-4" aria-hidden />
            )}
            {busy === 'test' ? 'Sending...' : 'Send test email'}
          </button>
          {dirty && (
            <span role="status" className="text-xs font-medium text-amber-700 dark:text-amber-300">
              Unsaved email changes
            </span>
          )}
        </div>
      </form>
    </Card>
  )
}

const customProvider: EmailProvider = {
  name: CUSTOM_PROVIDER,
  smtpHost: '',
  smtpPort: 587,
  tls: false,
  startTLS: true,
  authRequired: true,
  instructions: '',
}
