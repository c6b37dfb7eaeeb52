// The registry of view kinds: for each, what it reads from the store and which memoized view it
// computes. A new kind is one entry here plus its request and model in api-types.ts' ViewKinds.
// Runs inside the worker. Imports only src/shared and src/worker.
import {
  createBackupNormaliser,
  type BackupNormaliser,
} from '../shared/views/backups-incremental.ts'
import type { NormalisedBackups } from '../shared/views/backups-normalize.ts'
import { createAlertThresholdsView } from '../shared/views/alert-thresholds-view.ts'
import { createBackupsViewPipeline } from '../shared/views/backups-view.ts'
import { createBackupCoveragePipeline } from '../shared/views/backup-coverage-view.ts'
import { createBackupJobsView } from '../shared/views/backup-jobs-view.ts'
import { createGuestBackupView } from '../shared/views/backup-guest-view.ts'
import { createAlertsOverviewView } from '../shared/views/alerts-overview.ts'
import { createGuestUrlsView } from '../shared/views/guest-urls-view.ts'
import { createGuestViewPipeline } from '../shared/views/guest-view.ts'
import { createNodeSummaryView } from '../shared/views/node-summary.ts'
import { createStorageView } from '../shared/views/storage-view.ts'
import { createResourceView } from '../shared/views/resource-view.ts'
import { createRulePreviewView } from '../shared/views/rule-preview.ts'
import { readAlerts, readPendingAcks } from './alert-acks.ts'
import { readAlertConfigSource } from './alert-config-source.ts'
import { createAlertHistoryKind } from './alert-history-kind.ts'
import type { StateStore } from './store.ts'
import { defineViewKind, type ViewRegistry } from './view-subscriptions.ts'

// One incremental backup normaliser per store, shared by the Backups view and the node summary's
// Backups counts: a million records are normalised (and held) once, not once per view.
const normalisers = new WeakMap<StateStore, BackupNormaliser>()

/** The store's backups, normalised; the same result until a backup collection or guests change. */
export function readNormalisedBackups(store: StateStore): NormalisedBackups {
  let normalise = normalisers.get(store)
  if (!normalise) normalisers.set(store, (normalise = createBackupNormaliser()))
  return normalise({
    guestSnapshots: store.getCollection('guestSnapshots'),
    storageBackups: store.getCollection('storageBackups'),
    pbsBackups: store.getCollection('pbsBackups'),
    guests: store.getGuests(),
  })
}

/** A first load is under way and has not brought every guest it announced. */
export function isLoadingGuests(store: StateStore): boolean {
  const load = store.getLoad()
  return load !== null && load.guests.received < load.guests.total
}

/** The guest backup summaries are here (they come on demand, with the backups). */
function holdsGuestBackups(store: StateStore): boolean {
  return store.holdsBackups() && store.hasReceived('guestBackups')
}

/** Every view kind the worker serves (ARCHITECTURE.md, "The worker's view protocol"). */
export const VIEW_KINDS: ViewRegistry = {
  guests: defineViewKind(
    'guests',
    ({ store }) => ({
      guests: store.getGuests(),
      nodes: store.getNodes(),
      // Through the ack overlay: a row turns 'Ack' the moment the user acknowledges.
      alerts: readAlerts(store),
      stamp: store.getGuestStamp(),
      live: store.getGuestColumns(),
      lastUpdate: store.getLastUpdate(),
    }),
    createGuestViewPipeline,
  ),
  // Spec 000 §2.1.
  nodeSummary: defineViewKind(
    'nodeSummary',
    ({ store }) => ({
      nodes: store.getNodes(),
      guests: store.getGuests(),
      pbs: store.getCollection('pbs'),
      storage: store.getCollection('storage'),
      physicalDisks: store.getCollection('physicalDisks'),
      storageBackups: store.getCollection('storageBackups'),
      guestSnapshots: store.getCollection('guestSnapshots'),
      pbsBackups: store.getCollection('pbsBackups'),
      backups: () => readNormalisedBackups(store),
      guestsLoading: isLoadingGuests(store),
    }),
    createNodeSummaryView,
  ),
  // Spec 000 §2.3. A flush that touched only guests recomputes nothing: these arrays keep their
  // identity.
  storage: defineViewKind(
    'storage',
    ({ store }) => ({
      nodes: store.getNodes(),
      storage: store.getCollection('storage'),
      cephClusters: store.getCollection('cephClusters'),
      physicalDisks: store.getCollection('physicalDisks'),
    }),
    createStorageView,
  ),
  // Spec 000 §2.4. The backup collections keep their arrays, and their entities their objects,
  // until a delta changes them: the pipeline rebuilds only the changed records.
  backups: defineViewKind(
    'backups',
    ({ store, now }) => ({
      storageBackups: store.getCollection('storageBackups'),
      guestSnapshots: store.getCollection('guestSnapshots'),
      // Delta mode 2 sends the backups only once asked: until they are all here, not loaded.
      pveReceived:
        store.holdsBackups() &&
        (store.hasReceived('storageBackups') || store.hasReceived('guestSnapshots')),
      pbsBackups: store.getCollection('pbsBackups'),
      pbs: store.getCollection('pbs'),
      guests: store.getGuests(),
      nodes: store.getNodes(),
      now: now(),
      normalised: () => readNormalisedBackups(store),
    }),
    createBackupsViewPipeline,
  ),
  // Spec 001 §2 Alerts: overview. The overlay first: reading it settles which acks are pending.
  alertsOverview: defineViewKind(
    'alertsOverview',
    ({ store, now }) => ({
      alerts: readAlerts(store),
      pending: readPendingAcks(store),
      now: now(),
    }),
    createAlertsOverviewView,
  ),
  // Spec 001 §2 Alerts: thresholds. The working config comes from setAlertConfig, not the request.
  alertThresholds: defineViewKind(
    'alertThresholds',
    ({ store }) => ({
      nodes: store.getNodes(),
      guests: store.getGuests(),
      stamp: store.getGuestStamp(),
      pbs: store.getCollection('pbs'),
      storage: store.getCollection('storage'),
      alerts: readAlerts(store),
      config: readAlertConfigSource(store),
    }),
    createAlertThresholdsView,
  ),
  // Spec 001 §2 Alerts history: fetched from the server, which filters and pages the rows.
  alertHistory: createAlertHistoryKind(),
  // Spec 001 §2 Guest URLs: the guests grouped by node and searched; the URLs stay in the UI.
  guestUrls: defineViewKind(
    'guestUrls',
    ({ store }) => ({ guests: store.getGuests(), stamp: store.getGuestStamp() }),
    createGuestUrlsView,
  ),
  // Issue 25: a resource page. Not found only once the live data (and a chunked first load's
  // guests) have arrived; until then loading.
  resource: defineViewKind(
    'resource',
    ({ store, now }) => ({
      guests: store.getGuests(),
      nodes: store.getNodes(),
      storage: store.getCollection('storage'),
      pbs: store.getCollection('pbs'),
      alerts: readAlerts(store),
      pending: readPendingAcks(store),
      now: now(),
      ready: store.hasReceived('nodes') && !isLoadingGuests(store),
    }),
    createResourceView,
  ),
  // Issue 26: backup coverage, one row per guest, worst first. The config (for "overdue") is the
  // one the UI handed over; the alert engine resolves the same limits (backup-alert-limits.ts).
  backupCoverage: defineViewKind(
    'backupCoverage',
    ({ store, now }) => ({
      guestBackups: store.getCollection('guestBackups'),
      guests: store.getGuests(),
      config: readAlertConfigSource(store).config,
      loaded: holdsGuestBackups(store),
      now: now(),
    }),
    createBackupCoveragePipeline,
  ),
  // Issue 26: PVE and PBS backup jobs, and the failed vzdump tasks (backupTasks come on demand).
  backupJobs: defineViewKind(
    'backupJobs',
    ({ store, now }) => ({
      backupJobs: store.getCollection('backupJobs'),
      pbsJobs: store.getCollection('pbsJobs'),
      backupTasks: store.getCollection('backupTasks'),
      config: readAlertConfigSource(store).config,
      loaded:
        store.holdsBackups() && (store.hasReceived('backupJobs') || store.hasReceived('pbsJobs')),
      now: now(),
    }),
    createBackupJobsView,
  ),
  // Issue 26: one guest's backup summary (detail panel, guest page).
  guestBackup: defineViewKind(
    'guestBackup',
    ({ store, now }) => ({
      guestBackups: store.getCollection('guestBackups'),
      backupJobs: store.getCollection('backupJobs'),
      guests: store.getGuests(),
      config: readAlertConfigSource(store).config,
      loaded: holdsGuestBackups(store),
      now: now(),
    }),
    createGuestBackupView,
  ),
  // Issue 28: the custom rules editor's counts and preview, over the rules the editor sends.
  rulePreview: defineViewKind(
    'rulePreview',
    ({ store }) => ({
      guests: store.getGuests(),
      nodes: store.getNodes(),
      stamp: store.getGuestStamp(),
      live: store.getGuestColumns(),
      alerts: readAlerts(store),
      ready: store.hasReceived('nodes') && !isLoadingGuests(store),
    }),
    createRulePreviewView,
  ),
}
