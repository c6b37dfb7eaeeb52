// Backup job routes (issue 26): /cluster/backup, /cluster/backup-info/not-backed-up and the task
// logs of /nodes/{n}/tasks/{upid}/log.

import { renderBackupJobs, renderNotBackedUp } from './backup-jobs.ts'
import { pageTaskLog, renderTaskLog } from './task-log.ts'
import {
  PveError,
  optionalBoolean,
  optionalInteger,
  resolveNode,
  wrapWithTotal,
} from './route-kit.ts'
import type { Route, RouteKit } from './route-kit.ts'

const UPID = /^UPID:([^:]+):[0-9A-F]{8}:[0-9A-F]{8,9}:[0-9A-F]{8}:[^:]+:[^:]*:[^:]+:$/

/** Routes of the backup jobs and of task logs. */
export function backupRoutes(kit: RouteKit): Route[] {
  const { cluster, cached } = kit
  return [
    {
      pattern: /^\/cluster\/backup$/,
      params: [],
      handle: () => cached('backup-jobs', () => renderBackupJobs(cluster)),
    },
    {
      pattern: /^\/cluster\/backup-info\/not-backed-up$/,
      params: [],
      handle: () => cached('not-backed-up', () => renderNotBackedUp(cluster)),
    },
    {
      pattern: /^\/nodes\/([^/]+)\/tasks\/([^/]+)\/log$/,
      params: ['start', 'limit', 'download'],
      handle({ match, query }) {
        const node = resolveNode(cluster, match[1])
        const upid = decodeURIComponent(match[2] ?? '')
        if (!UPID.test(upid)) {
          throw new PveError(400, 'Parameter verification failed.', {
            upid: `unable to parse worker upid '${upid}'`,
          })
        }
        const paged = query.has('start') || query.has('limit')
        if (optionalBoolean(query, 'download') === true && paged) {
          throw new PveError(400, "Parameter 'start' and 'limit' not allowed with 'download'")
        }
        const nodeName = cluster.nodes[node]?.name ?? ''
        const task =
          cluster.tasks.backup[node]?.find((t) => t.upid === upid) ??
          cluster.tasks.other[node]?.find((t) => t.upid === upid)
        // PVE reads the task's log file; a task it does not know has none.
        const lines = task
          ? renderTaskLog(cluster, nodeName, task)
          : ['unable to open file - No such file or directory']
        const start = optionalInteger(query, 'start') ?? 0
        // A download is the whole file (PVE streams it; here as the same JSON lines).
        const limit =
          optionalBoolean(query, 'download') === true ? 0 : (optionalInteger(query, 'limit') ?? 50)
        const { data, total } = pageTaskLog(lines, start, limit)
        return wrapWithTotal(data, total)
      },
    },
  ]
}
