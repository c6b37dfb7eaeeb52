// Builders of backup sources for the backups pipeline tests. Times are local wall-clock times,
// so the date tests hold in any time zone.
import type {
  GuestSnapshot,
  PbsBackup,
  PbsInstance,
  StorageBackup,
} from '../../../../src/shared/model/state.ts'
import {
  DEFAULT_BACKUPS_VIEW_REQUEST,
  type BackupsViewRequest,
} from '../../../../src/shared/views/backups-types.ts'

/** Epoch seconds of a local date and hour (month 1-12). */
export function at(year: number, month: number, day: number, hour = 12, minute = 0): number {
  return new Date(year, month - 1, day, hour, minute).getTime() / 1000
}

export function makeSnapshot(vmid: number, time: number, patch: Partial<GuestSnapshot> = {}) {
  const node = patch.node ?? 'pve1'
  const name = patch.name ?? `snap-${time}`
  const snapshot: GuestSnapshot = {
    id: `lab-${node}-${vmid}-${name}`,
    name,
    node,
    instance: 'lab',
    type: 'qemu',
    vmid,
    time,
    vmstate: false,
    ...patch,
  }
  return snapshot
}

export function makeStorageBackup(vmid: number, ctime: number, patch: Partial<StorageBackup> = {}) {
  const type = patch.type ?? 'qemu'
  const volid = patch.volid ?? `local:backup/vzdump-${type}-${vmid}-${ctime}.vma.zst`
  const backup: StorageBackup = {
    id: `lab-pve1-${volid}`,
    storage: 'local',
    node: 'pve1',
    instance: 'lab',
    type,
    vmid,
    ctime,
    size: 2 * 1024 ** 3,
    format: 'vma.zst',
    protected: false,
    volid,
    isPBS: false,
    verified: false,
    ...patch,
  }
  return backup
}

export function makePbsBackup(vmid: string, backupTime: number, patch: Partial<PbsBackup> = {}) {
  const backup: PbsBackup = {
    id: `pbs1-main--vm-${vmid}-${backupTime}`,
    instance: 'pbs1',
    datastore: 'main',
    namespace: '',
    backupType: 'vm',
    vmid,
    backupTime,
    size: 8 * 1024 ** 3,
    protected: false,
    verified: true,
    verification: 'ok',
    encrypted: false,
    owner: 'root@pam',
    files: ['index.json.blob'],
    ...patch,
  }
  return backup
}

export function makePbsInstance(name: string, factors: (number | undefined)[]): PbsInstance {
  return {
    id: `pbs-${name}`,
    name,
    host: `https://${name}.example.com:8007`,
    status: 'online',
    version: '3.2',
    cpu: 5,
    memory: 20,
    memoryUsed: 1,
    memoryTotal: 5,
    uptime: 1000,
    datastores: factors.map((factor, i) => ({
      name: `ds${i}`,
      total: 100,
      used: 10,
      free: 90,
      usage: 10,
      status: 'available',
      namespaces: [{ path: '', depth: 0 }],
      ...(factor === undefined ? {} : { deduplicationFactor: factor }),
    })),
    connectionHealth: 'healthy',
    lastSeen: 0,
  }
}

export function makeBackupsRequest(patch: Partial<BackupsViewRequest> = {}): BackupsViewRequest {
  return { ...DEFAULT_BACKUPS_VIEW_REQUEST, window: { start: 0, count: 1000 }, ...patch }
}
