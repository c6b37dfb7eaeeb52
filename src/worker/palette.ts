// The command palette's search over the store (issue 28 item 6). Each source is built once per
// version of its list (the store keeps a list's identity until it changes: the guests' through
// metric updates), so a keystroke only scans prebuilt lowercase text.
// Runs inside the worker. Imports only src/shared and src/worker.
import { searchPalette, type PaletteSource } from '../shared/views/palette.ts'
import {
  PALETTE_PAGES,
  PALETTE_SETTINGS,
  createEntrySource,
  paletteActions,
} from '../shared/views/palette-pages.ts'
import {
  createAlertSource,
  createGuestSource,
  createNodeSource,
  createPbsSource,
  createStorageSource,
} from '../shared/views/palette-sources.ts'
import type { PaletteRequest, PaletteResult } from '../shared/views/palette-types.ts'
import type { StateStore } from './store-types.ts'

/** A source rebuilt only when its input list is another object than last time. */
function cachedSource<T>(build: (input: T) => PaletteSource): (input: T) => PaletteSource {
  let last: { input: T; source: PaletteSource } | null = null
  return (input) => {
    if (last?.input !== input) last = { input, source: build(input) }
    return last.source
  }
}

/** The palette search of `store`: what the worker's `palette` call answers. */
export function createPaletteSearch(store: StateStore): (request: PaletteRequest) => PaletteResult {
  const pages = createEntrySource('page', PALETTE_PAGES, true)
  const settings = createEntrySource('setting', PALETTE_SETTINGS, false)
  const actions = [false, true].map((on) => createEntrySource('action', paletteActions(on), true))
  const guests = cachedSource(createGuestSource)
  const nodes = cachedSource(createNodeSource)
  const storage = cachedSource(createStorageSource)
  const pbs = cachedSource(createPbsSource)
  const alerts = cachedSource(createAlertSource)
  return (request) =>
    searchPalette(
      [
        pages,
        settings,
        actions[request.wallView ? 1 : 0]!,
        guests(store.getGuests()),
        nodes(store.getNodes()),
        storage(store.getCollection('storage')),
        pbs(store.getCollection('pbs')),
        alerts(store.getCollection('activeAlerts')),
      ],
      typeof request.query === 'string' ? request.query : '',
    )
}
