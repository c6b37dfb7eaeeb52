// Content answers of one datastore: namespaces, groups and snapshots (reference §3.4-3.5).

import type { PbsSimModel, SimGroup, SimStore } from './model.ts'
import { archiveSize, namespaceDepth, verificationOf } from './schedule.ts'
import type { SimSnapshot } from './schedule.ts'
import type { StoreView } from './store-view.ts'
import { createUpid } from './upid.ts'
import { jobRunUpid } from './jobs.ts'

/** GET .../namespace: `parent` itself and its descendants down to `maxDepth` levels below it. */
export function renderNamespaces(store: SimStore, parent: string, maxDepth: number): unknown[] {
  const base = namespaceDepth(parent)
  return store.namespaces
    .filter((ns) => isWithin(ns.path, parent) && namespaceDepth(ns.path) - base <= maxDepth)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((ns) =>
      ns.comment !== undefined ? { ns: ns.path, comment: ns.comment } : { ns: ns.path },
    )
}

/** True when `path` is `parent` or lies below it. */
export function isWithin(path: string, parent: string): boolean {
  return parent === '' || path === parent || path.startsWith(`${parent}/`)
}

/** GET .../groups?ns=: one entry per group that has snapshots. */
export function renderGroups(model: PbsSimModel, view: StoreView, ns: string): unknown[] {
  return (view.namespaces.get(ns) ?? []).map((list) => {
    const last = list[0]!
    return {
      'backup-type': last.group.type,
      'backup-id': last.group.id,
      'last-backup': last.time,
      'backup-count': list.length,
      files: renderFiles(model, last).map((f) => f.filename),
      owner: last.group.owner,
    }
  })
}

/** Filters of GET .../snapshots. */
export interface SnapshotFilter {
  ns: string
  type?: string
  id?: string
}

/** GET .../snapshots: every snapshot of the namespace (optionally of one type or group). */
export function renderSnapshots(
  model: PbsSimModel,
  view: StoreView,
  filter: SnapshotFilter,
): unknown[] {
  const out: unknown[] = []
  for (const list of view.namespaces.get(filter.ns) ?? []) {
    const group = list[0]!.group
    if (filter.type !== undefined && group.type !== filter.type) continue
    if (filter.id !== undefined && group.id !== filter.id) continue
    // PBS walks snapshot directories in name order: oldest first within a group.
    for (let i = list.length - 1; i >= 0; i--)
      out.push(renderSnapshot(model, view.store, filter.ns, list[i]!))
  }
  return out
}

interface FileEntry {
  filename: string
  size: number
  'crypt-mode': 'none' | 'encrypt' | 'sign-only'
}

function renderSnapshot(
  model: PbsSimModel,
  store: SimStore,
  ns: string,
  snapshot: SimSnapshot,
): Record<string, unknown> {
  const { group } = snapshot
  const files = renderFiles(model, snapshot)
  const entry: Record<string, unknown> = {
    'backup-type': group.type,
    'backup-id': group.id,
    'backup-time': snapshot.time,
    files,
    size: files.reduce((sum, f) => sum + f.size, 0),
    owner: group.owner,
    protected: snapshot.protected,
  }
  const comment = snapshot.protected ? 'keep: before upgrade' : group.comment
  if (comment !== undefined) entry.comment = comment
  const verification = verificationOf(store, snapshot, Math.floor(model.nowMs / 1000))
  if (verification !== undefined) {
    entry.verification = {
      state: verification.state,
      upid: verifyUpid(model, store, ns, snapshot, verification.at),
    }
  }
  if (group.keyFingerprint !== undefined) entry.fingerprint = group.keyFingerprint
  return entry
}

// Archives carry the key's crypt mode; the manifest of an encrypted backup is only signed.
function renderFiles(model: PbsSimModel, snapshot: SimSnapshot): FileEntry[] {
  const { group } = snapshot
  return group.archives.map((archive, i) => ({
    filename: archive.filename,
    size: archiveSize(group, archive, i, snapshot.day, model.baseDay),
    'crypt-mode': !group.encrypted
      ? 'none'
      : archive.filename === 'index.json.blob'
        ? 'sign-only'
        : 'encrypt',
  }))
}

// A weekly verify job verifies many snapshots under one UPID; verify-new makes one task each.
function verifyUpid(
  model: PbsSimModel,
  store: SimStore,
  ns: string,
  snapshot: SimSnapshot,
  at: number,
): string {
  const policy = store.verify
  if (policy.kind === 'weekly') {
    return jobRunUpid(model, store, 'verificationjob', `${store.name}:${policy.job}`, at)
  }
  return createUpid({
    node: model.host.hostname,
    salt: model.seed + snapshot.group.salt,
    starttime: at,
    workerType: 'verify',
    workerId: `${store.name}:${snapshotPath(ns, snapshot.group, snapshot.time)}`,
    user: 'root@pam',
  }).upid
}

/** 'ns/prod/vm/101/<hex time>' style path of a snapshot, as task ids show it. */
export function snapshotPath(ns: string, group: SimGroup, time?: number): string {
  const prefix =
    ns === ''
      ? ''
      : `${ns
          .split('/')
          .map((p) => `ns/${p}`)
          .join('/')}/`
  const suffix = time === undefined ? '' : `/${time.toString(16).toUpperCase().padStart(8, '0')}`
  return `${prefix}${group.type}/${group.id}${suffix}`
}
