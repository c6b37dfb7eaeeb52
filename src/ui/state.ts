// UI-only state (valtio). Data state lives in the worker; this holds what the user chose.
import { proxy, subscribe } from 'valtio'
import type {
  GuestGrouping,
  GuestSortKey,
  GuestStatusMode,
  GuestViewMode,
  SortDirection,
} from '../shared/views/guest-view-types.ts'

export const THEME_KEY = 'pulse.theme'

/** The user's dashboard filters; the worker turns them into a view. */
export interface DashboardFilters {
  search: string
  viewMode: GuestViewMode
  statusMode: GuestStatusMode
  grouping: GuestGrouping
  sort: { key: GuestSortKey; direction: SortDirection }
}

/** The dashboard's UI state: its filters plus what Reset leaves alone. */
export interface DashboardState extends DashboardFilters {
  /** Filter bar visible (Escape toggles it when no filter is active). */
  showFilters: boolean
  /** Past searches, newest first (spec 000 §5 "Search history"). */
  searchHistory: readonly string[]
}

export interface UiState {
  dark: boolean
  dashboard: DashboardState
  /** The trend column of the guest, node and storage tables (issue 25); a saved preference. */
  trends: boolean
}

/** Default dashboard filters (spec 000 §2.2 Reset): vmid ascending, all, grouped. */
export function defaultDashboardFilters(): DashboardFilters {
  return {
    search: '',
    viewMode: 'all',
    statusMode: 'all',
    grouping: 'grouped',
    sort: { key: 'vmid', direction: 'asc' },
  }
}

/** The whole dashboard state at its defaults: filters reset, bar shown, no history. */
export function defaultDashboardState(): DashboardState {
  return { ...defaultDashboardFilters(), showFilters: true, searchHistory: [] }
}

/** Reset button and Escape: filters back to their defaults; history and bar visibility kept. */
export function resetDashboardFilters(): void {
  Object.assign(uiState.dashboard, defaultDashboardFilters())
}

/** A filter Escape would reset: search text, a type or a status other than All. */
export function hasActiveDashboardFilters(filters: DashboardFilters): boolean {
  return filters.search !== '' || filters.viewMode !== 'all' || filters.statusMode !== 'all'
}

/** Saved theme, else the system preference. */
export function initialDark(): boolean {
  try {
    const saved = localStorage.getItem(THEME_KEY)
    if (saved === 'dark' || saved === 'light') return saved === 'dark'
  } catch {
    // Storage can be blocked (private mode, sandbox); fall through to the system preference.
  }
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches
}

export const uiState = proxy<UiState>({
  dark: initialDark(),
  dashboard: defaultDashboardState(),
  trends: false,
})

/** Puts the `dark` class on <html> to match the state. */
export function applyTheme(dark: boolean): void {
  document.documentElement.classList.toggle('dark', dark)
}

/** Flips the theme, applies it and saves it locally. */
export function setDark(dark: boolean): void {
  uiState.dark = dark
  applyTheme(dark)
  try {
    localStorage.setItem(THEME_KEY, dark ? 'dark' : 'light')
  } catch {
    // Not persisted when storage is blocked; the toggle still works for this page.
  }
}

/** Keeps <html> in sync with the state; returns the unsubscribe function. */
export function bindTheme(): () => void {
  applyTheme(uiState.dark)
  return subscribe(uiState, () => applyTheme(uiState.dark))
}
