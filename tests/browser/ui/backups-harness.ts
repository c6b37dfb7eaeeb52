// The Backups tab's test harness: a fake worker whose backups view is the real pure pipeline
// (src/shared/views/backups-view.ts), the data, and the page's locators. The worker side is tested
// in tests/unit.
import { vi } from 'vitest'
import { page } from 'vitest/browser'
import type { NodeSummaryModel } from '../../../src/shared/views/node-summary-types.ts'
import type {
  BackupsViewModel,
  BackupsViewRequest,
} from '../../../src/shared/views/backups-types.ts'
import {
  createBackupsViewPipeline,
  type BackupsViewInput,
} from '../../../src/shared/views/backups-view.ts'
import { backupsState, defaultBackupsState } from '../../../src/ui/backups/backups-state.ts'
import { startPrefs } from '../../../src/ui/prefs.ts'
import { clearNodeSelection } from '../../../src/ui/summary/selection.ts'
import { makeGuest, makeNode } from '../../unit/shared/views/guest-fixtures.ts'
import {
  makePbsBackup,
  makePbsInstance,
  makeSnapshot,
  makeStorageBackup,
} from '../../unit/shared/views/backups-fixtures.ts'
import type { ViewKind, ViewModel, ViewRequest } from '../../../src/worker/api-types.ts'
import { FakeWorker } from './fake-worker.ts'
import { makeSummaryRow } from './summary-fixtures.ts'
import { cleanup, renderApp } from './render.tsx'

export const GIB = 1024 ** 3
/**
 * Today at 12:00 local time: the fixtures sit hours before now and are expected under 'Today',
 * which a run shortly after midnight would break. Only Date is faked (timers stay real), and the
 * clock is frozen: nothing here measures elapsed time.
 */
function middayToday(): number {
  const day = new Date()
  day.setHours(12, 0, 0, 0)
  return day.getTime()
}
vi.useFakeTimers({ toFake: ['Date'], now: middayToday() })
export const NOW = Date.now()
export const HOUR = 3600
export const now = Math.floor(NOW / 1000)

export function input(patch: Partial<BackupsViewInput> = {}): BackupsViewInput {
  return {
    guestSnapshots: [makeSnapshot(101, now - HOUR, { name: 'pre-upgrade' })],
    storageBackups: [
      makeStorageBackup(102, now - 26 * HOUR, { type: 'lxc', size: 30 * GIB, node: 'pve2' }),
    ],
    pveReceived: true,
    pbsBackups: [
      makePbsBackup('101', now - 2 * HOUR, { size: 60 * GIB, namespace: 'prod' }),
      makePbsBackup('103', now - 10 * 24 * HOUR, { backupType: 'ct', comment: 'x'.repeat(50) }),
    ],
    pbs: [makePbsInstance('pbs1', [2.44, 3.06])],
    guests: [makeGuest(101, { name: 'web' }), makeGuest(102, { name: 'dns', type: 'lxc' })],
    nodes: [makeNode('pve1'), makeNode('pve2')],
    now: NOW,
    ...patch,
  }
}

/** A fake worker whose backups view is the real pipeline over `data`. */
export class BackupsWorker extends FakeWorker {
  private version = 0
  private pipeline = createBackupsViewPipeline()
  constructor(private data: BackupsViewInput) {
    super()
  }
  answer(request: BackupsViewRequest): BackupsViewModel {
    return { ...this.pipeline.compute(this.data, request), version: ++this.version }
  }
  override subscribe<K extends ViewKind>(
    request: ViewRequest<K> & { kind: K },
    onModel: (model: ViewModel<K>) => void,
  ): number {
    const any: ViewRequest = request
    if (any.kind === 'backups') this.backups = this.answer(any)
    return super.subscribe(request, onModel)
  }
  override update(id: number, request: ViewRequest): void {
    super.update(id, request)
    if (request.kind === 'backups') this.pushBackups(this.answer(request))
  }
}

/** A worker that answers each backups update only when the test releases it, as a busy one does. */
export class SlowBackupsWorker extends BackupsWorker {
  private held: (() => void)[] = []
  override update(id: number, request: ViewRequest): Promise<void> {
    if (request.kind !== 'backups') {
      super.update(id, request)
      return Promise.resolve()
    }
    return new Promise((resolve) => {
      this.held.push(() => {
        super.update(id, request)
        resolve()
      })
    })
  }
  /** Answers every update held so far, in order. */
  release(): void {
    for (const answer of this.held.splice(0)) answer()
  }
}

const summaryRow = (id: string, name: string, kind: 'pve' | 'pbs') =>
  makeSummaryRow(id, name, { kind, counts: { backups: 0 } })

export const SUMMARY: NodeSummaryModel = {
  kind: 'nodeSummary',
  version: 1,
  tab: 'backups',
  nameLabel: 'Node / PBS',
  diskLabel: 'Storage / Disk',
  showTemperature: false,
  countColumns: [{ key: 'backups', label: 'Backups' }],
  rows: [
    summaryRow('lab-pve1', 'pve1', 'pve'),
    summaryRow('lab-pve2', 'pve2', 'pve'),
    summaryRow('pbs-pbs1', 'pbs1', 'pbs'),
  ],
}

let stopPrefs: (() => void) | null = null

/** Undo a test: preferences, the DOM, the node selection and the tab's state. */
export function resetBackupsHarness(): void {
  stopPrefs?.()
  stopPrefs = null
  cleanup()
  clearNodeSelection()
  Object.assign(backupsState, defaultBackupsState())
}

/** Starts the saved preferences, as main.tsx does; undone by resetBackupsHarness. */
export function startBackupsPrefs(): void {
  stopPrefs = startPrefs()
}

/** Renders the backups tab over `data`. */
export function open(data = input(), size?: { width: number; height: number }) {
  const api = new BackupsWorker(data)
  api.nodeSummary = SUMMARY
  stopPrefs = startPrefs()
  const { host } = renderApp(api, '/backups', size)
  return { api, host }
}

export const list = () => page.getByRole('table', { name: 'Backups' })
export const searchBox = () => page.getByRole('searchbox', { name: 'Search backups' })
export const rows = (host: HTMLElement) =>
  [...host.querySelectorAll<HTMLElement>('[data-kind="backup"]')].map(
    (row) => `${row.dataset.class}:${row.dataset.vmid}`,
  )
export const groups = (host: HTMLElement) =>
  [...host.querySelectorAll<HTMLElement>('[data-kind="group"]')].map(
    (row) => row.querySelector('[role="cell"]')?.textContent,
  )
export const toggle = (group: string, name: string) =>
  page.getByRole('group', { name: group }).getByRole('button', { name, exact: true })
