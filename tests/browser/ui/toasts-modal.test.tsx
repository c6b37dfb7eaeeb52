// The shared Toasts (spec 000 §9 durations, spec 001 §9 exit animation) and Modal (accessible
// dialog: labelled, focus trapped, Escape closes, focus returns) components.
import { useState } from 'react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import { Modal } from '../../../src/ui/components/Modal.tsx'
import {
  MAX_TOASTS,
  TOAST_DURATION_MS,
  TOAST_EXIT_MS,
  clearToasts,
  showToast,
  toastState,
} from '../../../src/ui/components/toast-store.ts'
import { Toasts } from '../../../src/ui/components/Toasts.tsx'
import { cleanup, render } from './render.tsx'

afterEach(() => {
  vi.useRealTimers()
  clearToasts()
  cleanup()
})

/** One macrotask through a MessageChannel (React's scheduler), which fake timers leave alone. */
const tick = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => resolve()
    channel.port2.postMessage(0)
  })

/** Lets valtio and React apply a change made outside React. */
async function settle() {
  for (let i = 0; i < 3; i++) await tick()
}

const toastEl = (text: string) =>
  [...document.querySelectorAll<HTMLElement>('[data-toast]')].find((el) =>
    el.textContent?.includes(text),
  )

describe('toasts', () => {
  test('durations: success and info 5 s, error 10 s', () => {
    expect(TOAST_DURATION_MS.success).toBe(5_000)
    expect(TOAST_DURATION_MS.info).toBe(5_000)
    expect(TOAST_DURATION_MS.error).toBe(10_000)
    expect(TOAST_EXIT_MS).toBe(300)
  })

  test('a success toast leaves after 5 s (plus the 300 ms exit); an error after 10 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    render(<Toasts />)
    showToast('Saved', 'success')
    showToast('Broken', 'error')
    await settle()
    expect(toastEl('Saved')).toBeDefined()
    expect(toastEl('Broken')).toBeDefined()

    vi.advanceTimersByTime(4_999)
    await settle()
    expect(toastEl('Saved')!.getAttribute('aria-hidden')).toBeNull()
    vi.advanceTimersByTime(1)
    await settle()
    // Fading out: hidden from assistive technology, still in the DOM for the animation.
    expect(toastEl('Saved')!.getAttribute('aria-hidden')).toBe('true')
    vi.advanceTimersByTime(TOAST_EXIT_MS)
    await settle()
    expect(toastEl('Saved')).toBeUndefined()
    expect(toastEl('Broken')).toBeDefined()

    vi.advanceTimersByTime(10_000 - 5_300 - 1)
    await settle()
    expect(toastEl('Broken')!.getAttribute('aria-hidden')).toBeNull()
    vi.advanceTimersByTime(1 + TOAST_EXIT_MS)
    await settle()
    expect(toastEl('Broken')).toBeUndefined()
    expect(toastState.toasts).toHaveLength(0)
  })

  test('a custom duration, and 0 keeps the toast until dismissed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    render(<Toasts />)
    showToast('Short', 'info', 2_500)
    showToast('Sticky', 'info', 0)
    vi.advanceTimersByTime(2_500 + TOAST_EXIT_MS)
    await settle()
    expect(toastEl('Short')).toBeUndefined()
    vi.advanceTimersByTime(60_000)
    await settle()
    expect(toastEl('Sticky')).toBeDefined()
  })

  test('live regions: errors assertive, the rest polite; Dismiss removes a toast', async () => {
    render(<Toasts />)
    showToast('All good', 'success')
    showToast('It failed', 'error')
    await expect.element(page.getByText('It failed')).toBeVisible()
    expect(toastEl('It failed')!.closest('[aria-live]')!.getAttribute('aria-live')).toBe(
      'assertive',
    )
    expect(toastEl('All good')!.closest('[aria-live]')!.getAttribute('aria-live')).toBe('polite')
    const dismiss = toastEl('All good')!.querySelector('button')!
    expect(dismiss.getAttribute('aria-label')).toBe('Dismiss notification')
    dismiss.click()
    await expect.poll(() => toastEl('All good')).toBeUndefined()
    expect(toastEl('It failed')).toBeDefined()
  })

  test(`at most ${MAX_TOASTS} toasts; the oldest leave first`, async () => {
    render(<Toasts />)
    for (let i = 1; i <= MAX_TOASTS + 2; i++) showToast(`Toast ${i}`, 'info')
    await expect.element(page.getByText(`Toast ${MAX_TOASTS + 2}`)).toBeVisible()
    expect(toastEl('Toast 1')).toBeUndefined()
    expect(toastEl('Toast 2')).toBeUndefined()
    expect(document.querySelectorAll('[data-toast]')).toHaveLength(MAX_TOASTS)
  })
})

function ModalHarness({ dismissible = true }: { dismissible?: boolean }) {
  const [open, setOpen] = useState(false)
  const [inner, setInner] = useState(false)
  return (
    <div>
      <button type="button" onClick={() => setOpen(true)}>
        Open dialog
      </button>
      {open && (
        <Modal
          title="Edit thing"
          onClose={() => setOpen(false)}
          dismissible={dismissible}
          footer={
            <button type="button" onClick={() => setInner(true)}>
              Ask
            </button>
          }
        >
          <label htmlFor="m-name">Name</label>
          <input id="m-name" />
          <label htmlFor="m-note">Note</label>
          <input id="m-note" />
        </Modal>
      )}
      {inner && (
        <Modal role="alertdialog" title="Are you sure?" onClose={() => setInner(false)}>
          <p>Really?</p>
        </Modal>
      )}
    </div>
  )
}

describe('modal', () => {
  test('labelled modal dialog; focus moves in, Tab cycles inside, Escape closes and focus returns', async () => {
    render(<ModalHarness />)
    const opener = page.getByRole('button', { name: 'Open dialog' })
    await opener.click()
    const dialog = page.getByRole('dialog', { name: 'Edit thing' })
    await expect.element(dialog).toHaveAttribute('aria-modal', 'true')
    // The dashboard's global keys stand aside while this selector matches.
    expect(document.querySelector('dialog[open], [aria-modal="true"]')).not.toBeNull()
    await expect.element(page.getByLabelText('Name')).toHaveFocus()

    // Name → Note → Ask → Close (header) ... wraps: the last focusable goes back to the first.
    const order: string[] = []
    for (let i = 0; i < 4; i++) {
      await userEvent.tab()
      const active = document.activeElement as HTMLElement
      order.push(active.id || active.getAttribute('aria-label') || active.textContent || '')
    }
    expect(order).toEqual(['m-note', 'Ask', 'Close', 'm-name'])
    await userEvent.tab({ shift: true })
    expect((document.activeElement as HTMLElement).getAttribute('aria-label')).toBe('Close')

    await userEvent.keyboard('{Escape}')
    await expect.element(dialog).not.toBeInTheDocument()
    await expect.element(opener).toHaveFocus()
    expect(document.querySelector('[aria-modal="true"]')).toBeNull()
  })

  test('nested: Escape closes only the innermost dialog', async () => {
    render(<ModalHarness />)
    await page.getByRole('button', { name: 'Open dialog' }).click()
    await page.getByRole('button', { name: 'Ask' }).click()
    const inner = page.getByRole('alertdialog', { name: 'Are you sure?' })
    await expect.element(inner).toBeVisible()
    await userEvent.keyboard('{Escape}')
    await expect.element(inner).not.toBeInTheDocument()
    await expect.element(page.getByRole('dialog', { name: 'Edit thing' })).toBeVisible()
    await expect.element(page.getByRole('button', { name: 'Ask' })).toHaveFocus()
  })

  test('not dismissible: no Close button and Escape does nothing', async () => {
    render(<ModalHarness dismissible={false} />)
    await page.getByRole('button', { name: 'Open dialog' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit thing' })
    await expect.element(dialog).toBeVisible()
    expect(dialog.getByRole('button', { name: 'Close' }).query()).toBeNull()
    await userEvent.keyboard('{Escape}')
    await expect.element(dialog).toBeVisible()
  })

  test('focus that leaves the dialog is brought back', async () => {
    render(<ModalHarness />)
    const opener = page.getByRole('button', { name: 'Open dialog' })
    await opener.click()
    await expect.element(page.getByLabelText('Name')).toHaveFocus()
    await userEvent.tab()
    await expect.element(page.getByLabelText('Note')).toHaveFocus()
    // Back to where it was inside the dialog.
    ;(opener.element() as HTMLElement).focus()
    await expect.element(page.getByLabelText('Note')).toHaveFocus()
  })
})
