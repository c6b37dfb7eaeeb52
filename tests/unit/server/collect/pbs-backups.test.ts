import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  toPbsBackup,
  toPbsBackups,
  toPbsNamespaces,
} from '../../../../src/server/collect/pbs-backups.ts'
import { startPbsSimulator, type PbsSimulator } from '../../../../src/server/sim/pbs/index.ts'
import { getPbsData } from '../sim/pbs/helpers.ts'

const SOURCE = { instance: 'vault', datastore: 'main', namespace: '' }

// The snapshot entry of reference/proxmox-api.md §3.5, verbatim.
const REFERENCE_SNAPSHOT = {
  'backup-type': 'vm',
  'backup-id': '1204',
  'backup-time': 1736816404,
  owner: 'pve-backup@pbs!pve-a',
  protected: false,
  comment: 'db-prod-02',
  files: [
    { filename: 'qemu-server.conf.blob', size: 712, 'crypt-mode': 'none' },
    { filename: 'drive-scsi0.img.fidx', size: 107374182400, 'crypt-mode': 'none' },
    { filename: 'index.json.blob', size: 540, 'crypt-mode': 'none' },
    { filename: 'client.log.blob', size: 2188, 'crypt-mode': 'none' },
  ],
  size: 107374185840,
  verification: {
    state: 'ok',
    upid: 'UPID:pbs01:00000B3A:0001F00D:0000002A:6786B9C0:verificationjob:main\\x3av\\x2dweekly:root@pam:',
  },
}

describe('toPbsNamespaces', () => {
  it('maps the reference example: root "" first, parents and depths from the path', () => {
    const data = [{ ns: '' }, { ns: 'cluster-a' }, { ns: 'cluster-a/tenant1', comment: '...' }]
    expect(toPbsNamespaces(data)).toEqual([
      { path: '', depth: 0 },
      { path: 'cluster-a', parent: '', depth: 1 },
      { path: 'cluster-a/tenant1', parent: 'cluster-a', depth: 2 },
    ])
  })

  it('skips entries without a string ns and duplicates', () => {
    expect(toPbsNamespaces([{ ns: 'a' }, { ns: 'a' }, { ns: 3 }, null, {}])).toEqual([
      { path: 'a', parent: '', depth: 1 },
    ])
    expect(toPbsNamespaces('nope')).toEqual([])
  })
})

describe('toPbsBackup', () => {
  it('maps the reference example to the wire record', () => {
    expect(toPbsBackup(REFERENCE_SNAPSHOT, SOURCE)).toEqual({
      id: 'vault-main--vm-1204-1736816404',
      instance: 'vault',
      datastore: 'main',
      namespace: '',
      backupType: 'vm',
      vmid: '1204',
      backupTime: 1736816404,
      size: 107374185840,
      protected: false,
      verified: true,
      verification: 'ok',
      encrypted: false,
      comment: 'db-prod-02',
      owner: 'pve-backup@pbs!pve-a',
      files: [
        'qemu-server.conf.blob',
        'drive-scsi0.img.fidx',
        'index.json.blob',
        'client.log.blob',
      ],
    })
  })

  it('sums file sizes when size is missing and tolerates files without size or crypt mode', () => {
    const backup = toPbsBackup(
      {
        'backup-type': 'ct',
        'backup-id': 201,
        'backup-time': '1736816404',
        files: [
          { filename: 'root.pxar.didx', size: 1000, 'crypt-mode': 'encrypt' },
          { filename: 'index.json.blob' },
          'client.log.blob',
        ],
      },
      { instance: 'vault', datastore: 'offsite', namespace: 'cluster-a/tenant1' },
    )
    expect(backup).toMatchObject({
      id: 'vault-offsite-cluster-a/tenant1-ct-201-1736816404',
      vmid: '201',
      backupTime: 1736816404,
      size: 1000,
      protected: false,
      verified: false,
      encrypted: true,
      files: ['root.pxar.didx', 'index.json.blob', 'client.log.blob'],
    })
    expect(backup).not.toHaveProperty('verification')
    expect(backup).not.toHaveProperty('comment')
    expect(backup).not.toHaveProperty('owner')
  })

  it('reads a failed verification, sign-only files and a protected host backup', () => {
    const backup = toPbsBackup(
      {
        ...REFERENCE_SNAPSHOT,
        'backup-type': 'host',
        'backup-id': 'fileserver',
        protected: true,
        comment: '',
        verification: { state: 'failed', upid: 'UPID:x' },
        files: [{ filename: 'index.json.blob', size: 500, 'crypt-mode': 'sign-only' }],
      },
      SOURCE,
    )
    expect(backup).toMatchObject({
      id: 'vault-main--host-fileserver-1736816404',
      backupType: 'host',
      vmid: 'fileserver',
      protected: true,
      verified: false,
      verification: 'failed',
      encrypted: false,
    })
    expect(backup).not.toHaveProperty('comment')
  })

  it('skips entries of unknown type or without id or time', () => {
    const list = toPbsBackups(
      [
        REFERENCE_SNAPSHOT,
        { ...REFERENCE_SNAPSHOT, 'backup-type': 'qemu' },
        { ...REFERENCE_SNAPSHOT, 'backup-id': '' },
        { ...REFERENCE_SNAPSHOT, 'backup-time': 'soon' },
        42,
      ],
      SOURCE,
    )
    expect(list.map((b) => b.vmid)).toEqual(['1204'])
    expect(toPbsBackups(undefined, SOURCE)).toEqual([])
  })
})

describe('PBS backup mappers on answers captured from the simulator', () => {
  let sim: PbsSimulator
  beforeAll(async () => {
    sim = await startPbsSimulator({ seed: 6, tickMs: 0, now: () => Date.UTC(2025, 5, 3, 14) })
  })
  afterAll(async () => {
    await sim.stop()
  })

  it('maps every namespace and every snapshot of every store', async () => {
    const pbs = sim.servers[0]!
    for (const store of ['main', 'offsite']) {
      const namespaces = toPbsNamespaces(
        await getPbsData(pbs, `/admin/datastore/${store}/namespace`),
      )
      expect(namespaces[0]).toEqual({ path: '', depth: 0 })
      for (const ns of namespaces) {
        const raw = await getPbsData(
          pbs,
          `/admin/datastore/${store}/snapshots?ns=${encodeURIComponent(ns.path)}`,
        )
        const backups = toPbsBackups(raw, {
          instance: 'pbs1',
          datastore: store,
          namespace: ns.path,
        })
        expect(backups).toHaveLength(raw.length)
        for (const [i, b] of backups.entries()) {
          const entry = raw[i]!
          expect(b.size).toBe(entry.size)
          expect(b.verified).toBe(
            (entry.verification as { state?: string } | undefined)?.state === 'ok',
          )
          expect(b.encrypted).toBe(entry.fingerprint !== undefined)
          expect(b.files).toHaveLength((entry.files as unknown[]).length)
        }
        expect(new Set(backups.map((b) => b.id)).size).toBe(backups.length)
      }
    }
  })
})
