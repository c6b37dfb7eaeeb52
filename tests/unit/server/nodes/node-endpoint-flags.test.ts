// A configured PBS becomes a monitored endpoint carrying its job monitor flags (issue 26): the
// poller reads only the job kinds they turn on.
import { describe, expect, it } from 'vitest'
import { toEndpoint } from '../../../../src/server/nodes/node-service.ts'
import { ALL_PBS_FLAGS, type StoredNode } from '../../../../src/server/store/nodes-repo.ts'

const node = (type: 'pve' | 'pbs'): StoredNode => ({
  id: 'n1',
  type,
  name: 'backup1',
  host: 'https://127.0.0.1:8007',
  user: null,
  tokenName: 'pulse@pbs!t',
  tokenValue: 'secret',
  password: null,
  fingerprint: null,
  verifySSL: false,
  monitorVMs: true,
  monitorContainers: true,
  monitorStorage: true,
  monitorBackups: true,
  source: 'user',
  createdAt: 0,
  updatedAt: 0,
})

describe('monitored endpoints', () => {
  it('carry a PBS node job monitor flags, all on by default', () => {
    expect(toEndpoint(node('pbs'))?.pbsJobs).toEqual({
      sync: true,
      verify: true,
      prune: true,
      gc: true,
    })
    const flags = { ...ALL_PBS_FLAGS, monitorSyncJobs: false, monitorGarbageJobs: false }
    expect(toEndpoint(node('pbs'), flags)?.pbsJobs).toEqual({
      sync: false,
      verify: true,
      prune: true,
      gc: false,
    })
    expect(toEndpoint(node('pve'))?.pbsJobs).toBeUndefined()
  })
})
