// Coercers for Proxmox's Perl-typed JSON (reference/proxmox-api.md §1.6): the shared set
// (src/shared/model/coerce.ts) plus the API envelope, which only the collectors see.
import { isRecord } from '../../shared/model/coerce.ts'

export {
  clampNumber,
  isRecord,
  toBool,
  toNumber,
  toOptionalNumber,
  toOptionalString,
  toPercent,
} from '../../shared/model/coerce.ts'

/** Accepts a response body with or without the `{ data }` envelope (recorded fixtures have both). */
export function unwrapData(body: unknown): unknown {
  return isRecord(body) && 'data' in body ? body.data : body
}
