// Node configuration as the API shows it (spec 001 §3 Node config). Never carries secrets.

export const NODE_TYPES = ['pve', 'pbs'] as const
export type NodeType = (typeof NODE_TYPES)[number]

/** A monitored endpoint as returned by GET /api/config/nodes. */
export interface NodeConfigView {
  id: string
  type: NodeType
  name: string
  host: string
  user?: string
  tokenName?: string
  hasPassword: boolean
  hasToken: boolean
  fingerprint?: string
  verifySSL: boolean
  status: 'pending' | 'connected' | 'disconnected' | 'error'
  monitorVMs: boolean
  monitorContainers: boolean
  monitorStorage: boolean
  monitorBackups: boolean
  isCluster?: boolean
  clusterName?: string
}
