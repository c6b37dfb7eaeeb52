// Inputs of the per-guest backup summary for its tests.
import type { BackupCoverage } from '../../../../../src/shared/model/backup-health.ts'
import type { GuestBackupInputs } from '../../../../../src/shared/views/guest-backups/summary.ts'

export function inputs(patch: Partial<GuestBackupInputs> = {}): GuestBackupInputs {
  return {
    vms: [],
    containers: [],
    storageBackups: [],
    pbsBackups: [],
    backupTasks: [],
    backupJobs: [],
    backupCoverage: [],
    ...patch,
  }
}

export function coverageRecord(instance: string): BackupCoverage {
  return { id: instance, instance, notBackedUp: [], collectedAt: 1 }
}
