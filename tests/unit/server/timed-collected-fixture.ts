// A poll result with one of every record whose times the plain dialect turns into RFC 3339
// strings (backups, snapshots, tasks, PBS lastSeen, disk lastChecked): the hub and /api/state tests.
import type { CollectedState } from '../../../src/server/collect/poller.ts'
import { makeCollected } from './collected-fixture.ts'

/** 2025-10-11T02:00:00Z in epoch seconds, as our state holds times. */
export const T = 1_760_148_000
/** An RFC 3339 date-time. */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/** `makeCollected(5, tick)` plus one record of each timed kind, around `T`. */
export function withBackups(tick: number): CollectedState {
  return {
    ...makeCollected(5, tick),
    pbs: [
      {
        id: 'pbs-vault',
        name: 'vault',
        host: 'https://127.0.0.1:8007',
        status: 'online',
        version: '3.3.2',
        cpu: 6,
        memory: 38,
        memoryUsed: 6,
        memoryTotal: 16,
        uptime: 100,
        datastores: [],
        connectionHealth: 'healthy',
        lastSeen: (T + 5) * 1000,
      },
    ],
    physicalDisks: [
      {
        id: 'lab-pve1--dev-sda',
        node: 'pve1',
        instance: 'lab',
        devPath: '/dev/sda',
        model: 'm',
        serial: 's',
        type: 'sata',
        size: 1,
        health: 'PASSED',
        wearout: 99,
        temperature: 0,
        rpm: 0,
        used: 'ZFS',
        lastChecked: (T + 6) * 1000 + 500,
      },
    ],
    pbsBackups: [
      {
        id: 'vault-main--vm-104-1760148000',
        instance: 'vault',
        datastore: 'main',
        namespace: '',
        backupType: 'vm',
        vmid: '104',
        backupTime: T,
        size: 2100,
        protected: false,
        verified: true,
        encrypted: false,
        files: ['index.json.blob'],
      },
    ],
    storageBackups: [
      {
        id: 'lab-pve1-local:backup/vz-201.tar.zst',
        storage: 'local',
        node: 'pve1',
        instance: 'lab',
        type: 'lxc',
        vmid: 201,
        ctime: T + 2,
        size: 730,
        format: 'tar.zst',
        protected: false,
        volid: 'local:backup/vz-201.tar.zst',
        isPBS: false,
        verified: false,
      },
    ],
    guestSnapshots: [
      {
        id: 'lab-pve1-104-pre-upgrade',
        name: 'pre-upgrade',
        node: 'pve1',
        instance: 'lab',
        type: 'qemu',
        vmid: 104,
        time: T - 60,
        vmstate: false,
      },
    ],
    backupTasks: [
      {
        id: 'lab-UPID:a',
        node: 'pve1',
        instance: 'lab',
        type: 'vzdump',
        vmid: 104,
        status: 'OK',
        startTime: T,
        endTime: T + 271,
      },
      {
        id: 'lab-UPID:b',
        node: 'pve1',
        instance: 'lab',
        type: 'vzdump',
        vmid: 105,
        status: 'running',
        startTime: T + 300,
        endTime: 0,
      },
    ],
  }
}
