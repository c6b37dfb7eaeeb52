// Which guest a backup belongs to (spec 000 §5): guest names by instance, node and vmid for PVE
// backups, by type and vmid for PBS ones, and the node each guest runs on. Pure.
import type { Guest, PbsBackup, StorageBackup } from '../model/state.ts'

/** A named guest a PBS backup may belong to. */
export interface NamedGuest {
  name: string
  instance: string
}

/**
 * Guest names by instance, node and vmid; by instance and vmid (first seen wins); and by guest
 * type and vmid across every instance (in arrival order) for PBS backups. Never by vmid alone:
 * VMIDs are unique inside a cluster only, and every cluster starts counting at 100.
 */
export interface GuestNames {
  byNode: Map<string, Map<string, Map<string, string>>>
  byInstance: Map<string, Map<string, string>>
  byTypeVmid: Map<string, NamedGuest[]>
  /** The node each guest runs on, by instance and vmid: where its storage backups count. */
  homes: Map<string, Map<string, string>>
}

/** Index the guests' names for resolving backup names. */
export function indexGuestNames(guests: readonly Guest[]): GuestNames {
  const byNode: GuestNames['byNode'] = new Map()
  const byInstance: GuestNames['byInstance'] = new Map()
  const byTypeVmid = new Map<string, NamedGuest[]>()
  for (const guest of guests) {
    if (!guest.name) continue
    const vmid = String(guest.vmid)
    let nodes = byNode.get(guest.instance)
    if (!nodes) byNode.set(guest.instance, (nodes = new Map()))
    let vmids = nodes.get(guest.node)
    if (!vmids) nodes.set(guest.node, (vmids = new Map()))
    vmids.set(vmid, guest.name)
    let inInstance = byInstance.get(guest.instance)
    if (!inInstance) byInstance.set(guest.instance, (inInstance = new Map()))
    if (!inInstance.has(vmid)) inInstance.set(vmid, guest.name)
    const key = `${guest.type === 'lxc' ? 'ct' : 'vm'}/${vmid}`
    const named = byTypeVmid.get(key)
    const entry = { name: guest.name, instance: guest.instance }
    if (named) named.push(entry)
    else byTypeVmid.set(key, [entry])
  }
  return { byNode, byInstance, byTypeVmid, homes: indexGuestHomes(guests) }
}

/** The node of each guest by instance and vmid (first seen wins). */
export function indexGuestHomes(guests: readonly Guest[]): Map<string, Map<string, string>> {
  const homes = new Map<string, Map<string, string>>()
  for (const guest of guests) {
    const vmid = String(guest.vmid)
    let home = homes.get(guest.instance)
    if (!home) homes.set(guest.instance, (home = new Map()))
    if (!home.has(vmid)) home.set(vmid, guest.node)
  }
  return homes
}

/**
 * The node a storage backup counts and lists under: its guest's node when the guest is known (a
 * shared storage lists every guest's backups through one node), else the node that listed it.
 */
export function storageBackupNode(
  homes: ReadonlyMap<string, ReadonlyMap<string, string>>,
  backup: Pick<StorageBackup, 'instance' | 'vmid' | 'node'>,
): string {
  return homes.get(backup.instance)?.get(String(backup.vmid)) ?? backup.node
}

/**
 * Name of the guest a PBS backup belongs to. A PBS serves several clusters whose VMIDs repeat, so
 * the guest type must match; when the backup's PVE instance is known (from its PVE-side twin),
 * only that instance's guests qualify. Among several, the one the backup's comment names
 * (vzdump's default notes are the guest name) wins, else the first.
 */
export function resolvePbsName(
  names: GuestNames,
  backup: PbsBackup,
  instance: string | undefined,
): string {
  return (
    resolvePbsGuest(names.byTypeVmid.get(`${backup.backupType}/${backup.vmid}`), backup, instance)
      ?.name ?? ''
  )
}

/**
 * The rule of resolvePbsName over a backup's candidates (the named guests of its type and vmid,
 * in arrival order): the guest itself, for callers that need more than its name.
 */
export function resolvePbsGuest<G extends NamedGuest>(
  candidates: readonly G[] | undefined,
  backup: Pick<PbsBackup, 'comment'>,
  instance: string | undefined,
): G | undefined {
  if (!candidates) return undefined
  if (instance) {
    candidates = candidates.filter((guest) => guest.instance === instance)
    if (candidates.length === 0) return undefined
  }
  if (candidates.length > 1 && backup.comment) {
    const comment = backup.comment.trim()
    for (const guest of candidates) if (guest.name === comment) return guest
  }
  return candidates[0]
}

/**
 * Name of the guest a PVE backup or snapshot belongs to: the guest on that node (local storage),
 * else the guest with that vmid anywhere in the same instance (shared storage, migrated guest).
 */
export function resolveName(
  names: GuestNames,
  vmid: string,
  instance: string,
  node: string,
): string {
  return (
    names.byNode.get(instance)?.get(node)?.get(vmid) ??
    names.byInstance.get(instance)?.get(vmid) ??
    ''
  )
}
