// The notification (toast) queue (spec 000 §9, spec 001 §3 Toast): a tiny valtio store that any
// component or module can push to; <Toasts /> in the shell renders it.
import { proxy } from 'valtio'

export const TOAST_TYPES = ['success', 'error', 'warning', 'info'] as const
export type ToastType = (typeof TOAST_TYPES)[number]

/** Spec 000 §9: success and info 5 s, error 10 s. A warning is held as long as an error. */
export const TOAST_DURATION_MS: Record<ToastType, number> = {
  success: 5_000,
  info: 5_000,
  warning: 10_000,
  error: 10_000,
}

/** Spec 001 §9: the exit animation. */
export const TOAST_EXIT_MS = 300

/** The most toasts shown at once; older ones leave first. */
export const MAX_TOASTS = 5

export interface Toast {
  id: number
  type: ToastType
  message: string
  /** Fading out; removed TOAST_EXIT_MS later. */
  leaving: boolean
}

export const toastState = proxy<{ toasts: Toast[] }>({ toasts: [] })

const timers = new Map<number, ReturnType<typeof setTimeout>>()
let nextId = 1

function remove(id: number): void {
  clearTimeout(timers.get(id))
  timers.delete(id)
  const index = toastState.toasts.findIndex((toast) => toast.id === id)
  if (index >= 0) toastState.toasts.splice(index, 1)
}

/**
 * Shows `message` for the type's duration (or `durationMs`; 0 keeps it until dismissed).
 * Returns the toast's id.
 */
export function showToast(
  message: string,
  type: ToastType = 'info',
  durationMs: number = TOAST_DURATION_MS[type],
): number {
  const id = nextId++
  toastState.toasts.push({ id, type, message, leaving: false })
  const shown = toastState.toasts.filter((toast) => !toast.leaving)
  for (const old of shown.slice(0, Math.max(0, shown.length - MAX_TOASTS))) remove(old.id)
  if (durationMs > 0)
    timers.set(
      id,
      setTimeout(() => dismissToast(id), durationMs),
    )
  return id
}

/** Starts the toast's exit; it is removed after the animation. */
export function dismissToast(id: number): void {
  const toast = toastState.toasts.find((item) => item.id === id)
  if (!toast || toast.leaving) return
  clearTimeout(timers.get(id))
  toast.leaving = true
  timers.set(
    id,
    setTimeout(() => remove(id), TOAST_EXIT_MS),
  )
}

/** Removes every toast at once (tests, and a fresh start). */
export function clearToasts(): void {
  for (const timer of timers.values()) clearTimeout(timer)
  timers.clear()
  toastState.toasts.splice(0)
}

/** Marks a sticky save bar, which toasts stay above: `<div {...SAVE_BAR} …>`. */
export const SAVE_BAR = { 'data-save-bar': '' } as const
