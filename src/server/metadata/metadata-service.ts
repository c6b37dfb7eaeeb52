// Guest metadata with bounds (issue 24 #8): any number of records for guests in the live state,
// at most MAX_UNKNOWN_GUEST_RECORDS for ids no monitored guest has (a guest of an endpoint that is
// down, one not polled yet, a key the reference's UI chose), and written ids shaped like a guest
// key. Updating or clearing a stored record is always allowed: it never adds a row. So the table
// holds at most two keys per monitored guest (id, node-vmid) plus that many; records of guests gone
// for good are removed by metadata-retention.ts.
import {
  emptyMetadata,
  type GuestMetadata,
  type GuestMetadataPatch,
  type MetadataRepo,
} from '../store/metadata-repo.ts'

/** Records of ids that no guest in the live state has, at most. */
export const MAX_UNKNOWN_GUEST_RECORDS = 1000

/** `<node>-<vmid>` or `<instance>-<node>-<vmid>`: a PVE vmid has at most 9 digits. */
const GUEST_KEY = /^.+-\d{1,9}$/

/** The problem with an id a save may not use, or undefined when it is a guest key. */
export function guestKeyProblem(id: string): string | undefined {
  return GUEST_KEY.test(id)
    ? undefined
    : 'must be a guest id: <node>-<vmid> or <instance>-<node>-<vmid>'
}

/** A save refused because it would store too many records of unknown guests. */
export interface UnknownGuestOverflow {
  /** The ids of the request that would add such a record. */
  ids: string[]
  problem: string
}

export type MetadataSaveResult =
  | { saved: GuestMetadata[]; refused?: undefined }
  | { refused: UnknownGuestOverflow; saved?: undefined }

export interface MetadataService {
  all(): Record<string, GuestMetadata>
  get(id: string): GuestMetadata | undefined
  remove(id: string): boolean
  /** Save every patch (all or none), or refuse them when the unknown-guest bound would be passed. */
  saveMany(patches: ReadonlyMap<string, GuestMetadataPatch>, now: number): MetadataSaveResult
}

/** Wrap the repository with the bounds, against the current live state. */
export function createMetadataService(deps: {
  repo: MetadataRepo
  /** True for the metadata key of a guest in the live state (known-guests.ts). */
  isGuest: (key: string) => boolean
}): MetadataService {
  const { repo, isGuest } = deps

  /** Ids of `patches` that would add a record no monitored guest has. */
  const newUnknown = (patches: ReadonlyMap<string, GuestMetadataPatch>): string[] => {
    const out: string[] = []
    for (const [id, patch] of patches) {
      if (isGuest(id) || !fillsRecord(id, patch) || repo.get(id)) continue
      out.push(id)
    }
    return out
  }

  return {
    all: () => repo.all(),
    get: (id) => repo.get(id),
    remove: (id) => repo.remove(id),
    saveMany(patches, now) {
      const adding = newUnknown(patches)
      if (adding.length > 0) {
        // Only on this path (rare: the UI shows guests of the live state): reads every stored id.
        let stored = 0
        for (const id of repo.ids()) if (!isGuest(id)) stored++
        if (stored + adding.length > MAX_UNKNOWN_GUEST_RECORDS) {
          const problem =
            `no monitored guest has this id, and at most ${MAX_UNKNOWN_GUEST_RECORDS} records ` +
            `of guests not in the live state are kept (${stored} stored, this request would ` +
            `add ${adding.length})`
          return { refused: { ids: adding, problem } }
        }
      }
      return { saved: repo.saveMany(patches, now) }
    },
  }
}

/** True when saving `patch` on an empty record leaves something stored. */
function fillsRecord(id: string, patch: GuestMetadataPatch): boolean {
  const next = { ...emptyMetadata(id), ...patch }
  return Boolean(next.customUrl || next.description || (next.tags && next.tags.length > 0))
}
