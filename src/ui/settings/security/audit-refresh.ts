// Tells the audit log card that the server has recorded new events (an export, an unlock, a new
// token): the card reloads when the revision moves, so it never shows a stale list.
import { proxy } from 'valtio'

/** Bumped after every action the server audits. */
export const auditRefresh = proxy({ revision: 0 })

/** Ask the audit log card to reload. */
export function noteAuditedAction(): void {
  auditRefresh.revision += 1
}
