// The node API's view of polling, read from the poller (on the loop or in its thread).
import type { Poller } from '../collect/poller.ts'
import type { NodeServiceDeps } from './node-service.ts'

/** What the node API shows of each endpoint's polling: status, last error, cluster members. */
export function endpointStatusFrom(
  poller: Poller,
): Pick<NodeServiceDeps, 'status' | 'lastError' | 'clusterInfo'> {
  return {
    status: (id) => poller.endpointStatus(id),
    lastError: (id) => poller.endpointError(id),
    clusterInfo: (id) => {
      const info = poller.endpointInfo(id)
      if (!info || !info.isCluster) return info && { isCluster: false }
      return { isCluster: true, clusterName: info.clusterName, clusterEndpoints: info.members }
    },
  }
}
