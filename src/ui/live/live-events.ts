// The UI end of the worker's event channel: one Comlink callback (ConnectionProvider) feeds this
// in-page dispatcher, and screens listen for the event types they care about. One crossing of
// the worker boundary per event, however many screens listen.
import { useEffect, useRef } from 'react'
import type { LiveEventOf, LiveEventType } from '../../shared/model/live-events.ts'
import type { LiveEvent } from '../../shared/model/live-events.ts'

type Listener = (event: LiveEvent) => void
const listeners = new Set<Listener>()

/** Hands an event from the worker to every listener; a failing listener does not stop the rest. */
export function dispatchLiveEvent(event: LiveEvent): void {
  for (const listener of [...listeners]) {
    try {
      listener(event)
    } catch (error) {
      console.error(`[live] handling ${event.type} failed`, error)
    }
  }
}

/** Calls `handler` for each event of the given types; returns the unsubscribe function. */
export function onLiveEvent<T extends LiveEventType>(
  types: readonly T[],
  handler: (event: LiveEventOf<T>) => void,
): () => void {
  const listener: Listener = (event) => {
    if ((types as readonly string[]).includes(event.type)) handler(event as LiveEventOf<T>)
  }
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/**
 * `onLiveEvent` for a component's lifetime. The latest `handler` is called, so it may close over
 * fresh state without resubscribing; `types` is read once per mount.
 */
export function useLiveEvent<T extends LiveEventType>(
  types: readonly T[],
  handler: (event: LiveEventOf<T>) => void,
): void {
  const latest = useRef(handler)
  latest.current = handler
  const key = types.join(',')
  useEffect(() => onLiveEvent(key.split(',') as T[], (event) => latest.current(event)), [key])
}
