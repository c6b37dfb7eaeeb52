import { Info } from 'lucide-react'
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { FOCUS_RING } from '../../components/button-classes.ts'
import { INPUT, TextField } from '../../components/TextField.tsx'
import { Notice } from '../security/fields.tsx'
import {
  hostPlaceholder,
  monitoringCoverage,
  tokenIdPlaceholder,
  userPlaceholder,
  type NodeForm,
  type SetupMode,
} from './node-form.ts'
import type { SetupScriptUrl } from './nodes-api.ts'
import { ManualSetup, QuickSetup } from './SetupPanels.tsx'

export type UpdateForm = (patch: Partial<NodeForm>) => void

interface SectionProps {
  form: NodeForm
  update: UpdateForm
  disabled: boolean
}

/** A titled part of the form. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId()
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h3 id={id} className="text-sm font-semibold text-gray-900 dark:text-gray-100">
        {title}
      </h3>
      {children}
    </section>
  )
}

/** Basic information: Node Name (optional) and Host URL (required). */
export function BasicSection({ form, update, disabled }: SectionProps) {
  const id = useId()
  return (
    <Section title="Basic information">
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Node Name"
          id={`${id}-name`}
          hint="Optional: the host name is used when left blank."
          value={form.name}
          disabled={disabled}
          autoComplete="off"
          onChange={(event) => update({ name: event.target.value })}
        />
        <TextField
          label="Host URL"
          id={`${id}-host`}
          placeholder={hostPlaceholder(form.type)}
          hint={
            form.type === 'pbs'
              ? 'Required. HTTPS only; port 8007 when none is given.'
              : 'Required. Port 8006 when none is given.'
          }
          required
          aria-required="true"
          value={form.host}
          disabled={disabled}
          autoComplete="off"
          inputMode="url"
          onChange={(event) => update({ host: event.target.value })}
        />
      </div>
    </Section>
  )
}

function Radio({
  name,
  checked,
  onSelect,
  disabled,
  children,
}: {
  name: string
  checked: boolean
  onSelect: () => void
  disabled: boolean
  children: ReactNode
}) {
  return (
    <label
      className={`flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm ${
        checked
          ? 'border-blue-500 bg-blue-50 dark:border-blue-500 dark:bg-blue-950/50'
          : 'border-gray-300 dark:border-gray-600'
      }`}
    >
      <input
        type="radio"
        name={name}
        checked={checked}
        disabled={disabled}
        onChange={onSelect}
        className="size-4"
      />
      {children}
    </label>
  )
}

const SETUP_TABS: { mode: SetupMode; label: string }[] = [
  { mode: 'auto', label: 'Quick Setup' },
  { mode: 'manual', label: 'Manual Setup' },
]

/** Quick Setup / Manual Setup tabs (arrow keys move between them). */
function SetupTabs({
  mode,
  onMode,
  panelId,
}: {
  mode: SetupMode
  onMode: (mode: SetupMode) => void
  panelId: string
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([])
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    event.preventDefault()
    const next = mode === 'auto' ? 1 : 0
    onMode(SETUP_TABS[next]!.mode)
    refs.current[next]?.focus()
  }
  return (
    <div
      role="tablist"
      aria-label="Token setup"
      className="flex gap-1 border-b border-gray-200 dark:border-gray-800"
    >
      {SETUP_TABS.map((tab, index) => (
        <button
          key={tab.mode}
          ref={(element) => {
            refs.current[index] = element
          }}
          type="button"
          role="tab"
          id={`${panelId}-${tab.mode}`}
          aria-selected={mode === tab.mode}
          aria-controls={panelId}
          tabIndex={mode === tab.mode ? 0 : -1}
          onClick={() => onMode(tab.mode)}
          onKeyDown={onKeyDown}
          className={`-mb-px border-b-2 px-3 py-1.5 text-sm font-medium ${FOCUS_RING} ${
            mode === tab.mode
              ? 'border-blue-600 text-blue-700 dark:border-blue-400 dark:text-blue-300'
              : 'border-transparent text-gray-600 hover:text-gray-900 dark:text-gray-400 dark:hover:text-gray-100'
          }`}
        >
          {tab.label}
        </button>
      ))}
    </div>
  )
}

export interface AuthSectionProps extends SectionProps {
  /** Editing: blank secrets keep the stored ones. */
  editing: boolean
  setup: SetupScriptUrl | null
  onSetup: (setup: SetupScriptUrl | null) => void
}

/** Authentication: Username & Password, or API Token (Recommended) with its set-up tabs. */
export function AuthSection({ form, update, disabled, editing, setup, onSetup }: AuthSectionProps) {
  const id = useId()
  const panelId = `${id}-panel`
  const token = form.authType === 'token'
  const keep = (what: string) => (editing ? `Leave blank to keep the stored ${what}.` : undefined)
  return (
    <Section title="Authentication">
      <fieldset className="flex flex-col gap-2 sm:flex-row" disabled={disabled}>
        <legend className="sr-only">Authentication method</legend>
        <Radio
          name={`${id}-auth`}
          checked={!token}
          disabled={disabled}
          onSelect={() => update({ authType: 'password' })}
        >
          Username &amp; Password
        </Radio>
        <Radio
          name={`${id}-auth`}
          checked={token}
          disabled={disabled}
          onSelect={() => update({ authType: 'token' })}
        >
          API Token
          <span className="rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-900 dark:text-emerald-200">
            Recommended
          </span>
        </Radio>
      </fieldset>
      {token ? (
        <>
          <SetupTabs
            mode={form.setupMode}
            onMode={(setupMode) => update({ setupMode })}
            panelId={panelId}
          />
          <div role="tabpanel" id={panelId} aria-labelledby={`${panelId}-${form.setupMode}`}>
            {form.setupMode === 'auto' ? (
              <QuickSetup type={form.type} host={form.host} setup={setup} onSetup={onSetup} />
            ) : (
              <ManualSetup type={form.type} />
            )}
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              label="Token ID"
              id={`${id}-token-id`}
              placeholder={tokenIdPlaceholder(form.type)}
              hint="Format: user@realm!tokenname"
              value={form.tokenName}
              disabled={disabled}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => update({ tokenName: event.target.value })}
            />
            <TextField
              label="Token Value"
              id={`${id}-token-value`}
              type="password"
              autoComplete="new-password"
              hint={keep('token value')}
              value={form.tokenValue}
              disabled={disabled}
              onChange={(event) => update({ tokenValue: event.target.value })}
            />
          </div>
        </>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label="Username"
            id={`${id}-user`}
            placeholder={userPlaceholder(form.type)}
            hint={form.type === 'pbs' ? 'With a realm, like admin@pbs.' : 'Like root@pam.'}
            value={form.user}
            disabled={disabled}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => update({ user: event.target.value })}
          />
          <TextField
            label="Password"
            id={`${id}-password`}
            type="password"
            autoComplete="new-password"
            hint={keep('password')}
            value={form.password}
            disabled={disabled}
            onChange={(event) => update({ password: event.target.value })}
          />
        </div>
      )}
    </Section>
  )
}

/** SSL settings: Verify SSL certificate (default on) and an optional fingerprint. */
export function SslSection({ form, update, disabled }: SectionProps) {
  const id = useId()
  return (
    <Section title="SSL settings">
      <label htmlFor={`${id}-verify`} className="flex items-center gap-2 text-sm">
        <input
          id={`${id}-verify`}
          type="checkbox"
          checked={form.verifySSL}
          disabled={disabled}
          onChange={(event) => update({ verifySSL: event.target.checked })}
          className="size-4 rounded border-gray-300 dark:border-gray-600"
        />
        Verify SSL certificate
      </label>
      <div className="flex min-w-0 flex-col gap-1">
        <label
          htmlFor={`${id}-fp`}
          className="text-sm font-medium text-gray-700 dark:text-gray-300"
        >
          SSL Fingerprint
        </label>
        <input
          id={`${id}-fp`}
          className={`${INPUT} font-mono`}
          placeholder="AA:BB:CC:…"
          aria-describedby={`${id}-fp-hint`}
          value={form.fingerprint}
          disabled={disabled}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => update({ fingerprint: event.target.value })}
        />
        <p id={`${id}-fp-hint`} className="text-xs text-gray-600 dark:text-gray-400">
          Optional: the SHA-256 fingerprint of a self-signed certificate to trust.
        </p>
      </div>
    </Section>
  )
}

/** The Monitoring coverage note. */
export function CoverageNote({ form }: { form: NodeForm }) {
  return (
    <Notice tone="info" label="Monitoring coverage" icon={<Info className="size-4" aria-hidden />}>
      <p className="font-medium">Monitoring coverage</p>
      <p className="text-xs">{monitoringCoverage(form.type)}</p>
    </Notice>
  )
}
