import type { ReactNode } from 'react'
import { INPUT } from '../../components/TextField.tsx'
import { EMAIL_LIMITS, type EmailField, type EmailForm } from './email-form.ts'

type Errors = Partial<Record<EmailField, string>>
type Setter = <K extends EmailField>(field: K, value: EmailForm[K]) => void

/** A labelled field with its hint or its error (linked by aria-describedby, error wins). */
export function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string
  label: string
  error?: string | undefined
  hint?: ReactNode
  children: (describedBy: string | undefined, invalid: boolean) => ReactNode
}) {
  const noteId = error || hint ? `${id}-note` : undefined
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-gray-700 dark:text-gray-300">
        {label}
      </label>
      {children(noteId, Boolean(error))}
      {error ? (
        <p id={noteId} className="text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : (
        hint && (
          <p id={noteId} className="text-xs text-gray-600 dark:text-gray-400">
            {hint}
          </p>
        )
      )}
    </div>
  )
}

const INVALID = 'border-red-500 dark:border-red-500'

function TextInput({
  field,
  label,
  form,
  errors,
  set,
  type = 'text',
  hint,
  placeholder,
  inputMode,
  autoComplete = 'off',
}: {
  field: Exclude<EmailField, 'enabled' | 'tls' | 'startTLS' | 'hasPassword' | 'clearPassword'>
  label: string
  form: EmailForm
  errors: Errors
  set: Setter
  type?: string
  hint?: ReactNode
  placeholder?: string
  inputMode?: 'numeric' | 'email'
  autoComplete?: string
}) {
  const id = `email-${field}`
  return (
    <Field id={id} label={label} error={errors[field]} hint={hint}>
      {(describedBy, invalid) => (
        <input
          id={id}
          type={type}
          inputMode={inputMode}
          autoComplete={autoComplete}
          placeholder={placeholder}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          value={form[field]}
          onChange={(event) => {
            set(field, event.target.value)
            // A new password replaces the stored one: no removal pending any more.
            if (field === 'password' && event.target.value) set('clearPassword', false)
          }}
          className={`${INPUT} ${invalid ? INVALID : ''}`}
        />
      )}
    </Field>
  )
}

function Check({
  label,
  checked,
  onChange,
}: {
  label: string
  checked: boolean
  onChange: (value: boolean) => void
}) {
  return (
    <label className="inline-flex items-center gap-2 text-sm text-gray-700 dark:text-gray-300">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="size-4 rounded border-gray-300 dark:border-gray-600"
      />
      {label}
    </label>
  )
}

/** The SMTP fields of the email card (spec 001 §3 Email config, §5 Email rules). */
export function EmailFields({
  form,
  errors,
  set,
}: {
  form: EmailForm
  errors: Errors
  set: Setter
}) {
  const common = { form, errors, set }
  const { rateLimit, maxRetries, retryDelay } = EMAIL_LIMITS
  return (
    <>
      <div className="grid gap-3 sm:grid-cols-[1fr_8rem]">
        <TextInput field="server" label="SMTP server" placeholder="smtp.example.com" {...common} />
        <TextInput field="port" label="Port" inputMode="numeric" placeholder="587" {...common} />
      </div>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <Check label="Implicit TLS (SMTPS)" checked={form.tls} onChange={(v) => set('tls', v)} />
        <Check label="STARTTLS" checked={form.startTLS} onChange={(v) => set('startTLS', v)} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextInput field="username" label="Username" {...common} />
        <TextInput
          field="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          placeholder={form.hasPassword ? '••••' : ''}
          hint={
            form.hasPassword ? (
              <span className="flex flex-wrap items-center gap-x-3">
                {form.clearPassword
                  ? 'The stored password is removed on save.'
                  : 'A password is stored; leave blank to keep it.'}
                <Check
                  label="Remove stored password"
                  checked={form.clearPassword}
                  onChange={(value) => {
                    set('clearPassword', value)
                    if (value) set('password', '')
                  }}
                />
              </span>
            ) : undefined
          }
          {...common}
        />
        <TextInput
          field="from"
          label="From address"
          inputMode="email"
          placeholder="pulse@example.com"
          {...common}
        />
        <TextInput field="replyTo" label="Reply-to address" inputMode="email" {...common} />
      </div>
      <Field
        id="email-to"
        label="Recipients"
        error={errors.to}
        hint="One address per line. Empty sends to the From address."
      >
        {(describedBy, invalid) => (
          <textarea
            id="email-to"
            rows={3}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            value={form.to}
            onChange={(event) => set('to', event.target.value)}
            className={`${INPUT} font-mono ${invalid ? INVALID : ''}`}
          />
        )}
      </Field>
      <div className="grid gap-3 sm:grid-cols-3">
        <TextInput
          field="rateLimit"
          label="Rate limit (per minute)"
          inputMode="numeric"
          hint={`${rateLimit.min}-${rateLimit.max}; default ${rateLimit.fallback}`}
          {...common}
        />
        <TextInput
          field="maxRetries"
          label="Retries"
          inputMode="numeric"
          hint={`${maxRetries.min}-${maxRetries.max}`}
          {...common}
        />
        <TextInput
          field="retryDelay"
          label="Retry delay (seconds)"
          inputMode="numeric"
          hint={`${retryDelay.min}-${retryDelay.max}`}
          {...common}
        />
      </div>
    </>
  )
}
