import { describe, expect, it } from 'vitest'
import type { PveDiagnostics } from '../../../../src/shared/model/diagnostics.ts'
import { agentPermissionFor } from '../../../../src/server/diagnostics/endpoint-checks.ts'
import { recommend } from '../../../../src/server/diagnostics/run-diagnostics.ts'

const base: PveDiagnostics = {
  id: 'n1',
  name: 'alpha',
  host: 'https://127.0.0.1:8006',
  type: 'pve',
  authMethod: 'api_token',
  connected: true,
}

describe('agentPermissionFor', () => {
  it('asks for VM.GuestAgent.Audit from PVE 9 and VM.Monitor before', () => {
    expect(agentPermissionFor('9.0.3')).toBe('VM.GuestAgent.Audit')
    expect(agentPermissionFor('10.1')).toBe('VM.GuestAgent.Audit')
    expect(agentPermissionFor('8.4.14')).toBe('VM.Monitor')
    expect(agentPermissionFor(undefined)).toBe('VM.Monitor')
  })
})

describe('recommend', () => {
  it('says nothing when every check passed', () => {
    const ok = { status: 'ok', message: '' } as const
    const node: PveDiagnostics = {
      ...base,
      vmDiskCheck: { vmsFound: 3, permission: 'VM.Monitor', testResult: ok },
      backupListing: ok,
      physicalDisks: { nodesChecked: 1, nodesWithDisks: 1, totalDisks: 2, testResult: ok },
    }
    expect(recommend({ nodes: [node], pbs: [] })).toEqual([])
  })

  it('names the node and the privilege for each failed permission check', () => {
    const no = { status: 'failed', message: 'Permission denied' } as const
    const node: PveDiagnostics = {
      ...base,
      vmDiskCheck: { vmsFound: 3, permission: 'VM.GuestAgent.Audit', testResult: no },
      backupListing: no,
      physicalDisks: { nodesChecked: 1, nodesWithDisks: 0, totalDisks: 0, testResult: no },
    }
    const out = recommend({ nodes: [node], pbs: [] })
    expect(out).toHaveLength(3)
    expect(out[0]).toMatch(/^alpha: grant VM\.GuestAgent\.Audit/)
    expect(out[1]).toMatch(/^alpha: grant Datastore\.Audit/)
    expect(out[2]).toMatch(/^alpha: grant Sys\.Audit/)
  })

  it('covers unreachable nodes, missing credentials, passwords and an empty setup', () => {
    expect(recommend({ nodes: [], pbs: [] })[0]).toMatch(/No nodes are configured/)
    const out = recommend({
      nodes: [
        { ...base, connected: false, error: 'refused' },
        { ...base, name: 'beta', authMethod: 'username_password' },
      ],
      pbs: [{ ...base, name: 'pbs1', type: 'pbs', authMethod: 'none', connected: false }],
    })
    expect(out).toEqual([
      expect.stringMatching(/^alpha: check the host/),
      expect.stringMatching(/^beta: an API token is recommended/),
      expect.stringMatching(/^pbs1: store an API token/),
    ])
  })
})
