// Hand-made backup summaries, PBS jobs and PBS instances for the backup alert tests (issue 26).
import type { GuestBackup, PbsJob } from '../../../../src/shared/model/backup-health.ts'
import type { Guest, PbsInstance, State } from '../../../../src/shared/model/state.ts'
import { makeGuest, makeState, T0 } from './engine-fixture.ts'

export const DAY_S = 86_400
/** T0 in epoch seconds. */
export const NOW_S = T0 / 1000

/** A guest's summary: backed up an hour before T0, covered by an enabled job, nothing failed. */
export function summary(guest: Guest, patch: Partial<GuestBackup> = {}): GuestBackup {
  return {
    id: guest.id,
    instance: guest.instance,
    node: guest.node,
    vmid: guest.vmid,
    type: guest.type,
    name: guest.name,
    template: guest.template === true,
    orphaned: false,
    newest: NOW_S - 3600,
    newestSource: 'pbs',
    count: 3,
    coverage: 'enabled',
    verifyFailed: 0,
    ...patch,
  }
}

export function orphan(instance: string, vmid: number): GuestBackup {
  return {
    id: `orphan-${instance}-vm-${vmid}`,
    instance,
    node: '',
    vmid,
    type: 'qemu',
    name: '',
    template: false,
    orphaned: true,
    newest: NOW_S - DAY_S,
    count: 1,
    coverage: 'unknown',
    verifyFailed: 0,
  }
}

export function pbsServer(patch: Partial<PbsInstance> = {}): PbsInstance {
  return {
    id: 'pbs-vault',
    name: 'vault',
    host: 'https://vault:8007',
    status: 'online',
    version: '3.3',
    cpu: 10,
    memory: 20,
    memoryUsed: 2,
    memoryTotal: 10,
    uptime: 100,
    datastores: [],
    connectionHealth: 'healthy',
    lastSeen: 0,
    ...patch,
  }
}

/** A verify job of pbs-vault whose last run succeeded an hour ago and runs next in a day. */
export function pbsJob(patch: Partial<PbsJob> = {}): PbsJob {
  return {
    id: 'pbs-vault-verify-v1',
    pbs: 'pbs-vault',
    instance: 'vault',
    kind: 'verify',
    jobId: 'v1',
    store: 'main',
    schedule: 'daily',
    enabled: true,
    nextRun: NOW_S + DAY_S,
    lastRun: {
      upid: 'UPID:vault:1',
      state: 'ok',
      status: 'OK',
      startTime: NOW_S - 3600,
      endTime: NOW_S - 3500,
      duration: 100,
    },
    ...patch,
  }
}

/** A state with the guests, their summaries and backups read (backupsCollectedAt set). */
export function backupState(
  guests: Guest[],
  summaries: GuestBackup[] = guests.map((g) => summary(g)),
  patch: Partial<State> = {},
): State {
  return makeState({
    vms: guests.filter((g) => g.type === 'qemu'),
    containers: guests.filter((g) => g.type === 'lxc'),
    guestBackups: summaries,
    pbs: [pbsServer()],
    connectionHealth: { lab: true, 'pbs-vault': true },
    backupsCollectedAt: T0 - 60_000,
    ...patch,
  })
}

export { makeGuest }
