// The estate's resources as Prometheus families, named as prometheus-pve-exporter names them
// (pve_up, pve_cpu_usage_ratio, pve_memory_usage_bytes, pve_guest_info, ...), so dashboards built for
// it work: each series carries one `id` label, and an `_info` series per resource carries the
// names, node, type and tags (label cardinality stays one series per resource and family). The id
// is the exporter's kind prefix and our own id (`qemu/<guest id>`, `node/<node id>`,
// `storage/<storage id>`), unique across clusters where a VMID or node name repeats.
// Values are the live state's own numbers (a guest's cpu is the 0-1 fraction the dashboard shows
// as a percent); what the dashboard shows as '-' is no sample at all.
import type { Guest, PbsInstance, PveNode, State, Storage } from '../../shared/model/state.ts'
import type { ChunkSource } from './chunk-pool.ts'
import { escapeLabelValue, Family, writeFamilies } from './exposition.ts'

/** Guests written between two yields of the generator (a slice of the event loop). */
export const GUESTS_PER_STEP = 500

function createFamilies(source: ChunkSource) {
  const family = (name: string, help: string) => new Family(name, 'gauge', help, source)
  return {
    up: family(
      'pve_up',
      'Whether the resource is up: guest running, node online, storage or datastore available, PBS online.',
    ),
    cpu: family('pve_cpu_usage_ratio', 'CPU usage as a ratio (1 = all its CPUs busy).'),
    cpuLimit: family('pve_cpu_usage_limit', 'CPUs the resource may use.'),
    memUsed: family('pve_memory_usage_bytes', 'Memory in use, in bytes.'),
    memSize: family('pve_memory_size_bytes', 'Memory size, in bytes.'),
    diskUsed: family('pve_disk_usage_bytes', 'Disk space in use, in bytes.'),
    diskSize: family('pve_disk_size_bytes', 'Disk size, in bytes.'),
    uptime: family('pve_uptime_seconds', 'Seconds since the resource started.'),
    netIn: family(
      'pve_network_receive_bytes_per_second',
      'Network bytes received per second over the last poll interval.',
    ),
    netOut: family(
      'pve_network_transmit_bytes_per_second',
      'Network bytes sent per second over the last poll interval.',
    ),
    diskRead: family(
      'pve_disk_read_bytes_per_second',
      'Disk bytes read per second over the last poll interval.',
    ),
    diskWrite: family(
      'pve_disk_write_bytes_per_second',
      'Disk bytes written per second over the last poll interval.',
    ),
    shared: family('pve_storage_shared', 'Whether the storage is shared (1) or not.'),
    guestInfo: family(
      'pve_guest_info',
      'Guest identity: id, name, node, type, tags (semicolon-separated), vmid, cluster, template.',
    ),
    nodeInfo: family('pve_node_info', 'Node identity: id, name, cluster, version.'),
    storageInfo: family(
      'pve_storage_info',
      'Storage identity: id, node, storage, plugintype, content, cluster.',
    ),
    pbsInfo: family('pve_pbs_info', 'Proxmox Backup Server identity: id, name, version.'),
    datastoreInfo: family('pve_datastore_info', 'PBS datastore identity: id, pbs, datastore.'),
  }
}
type Families = ReturnType<typeof createFamilies>

// Offline nodes by instance: guests on them are shown inactive, as the dashboard does.
function offlineNodes(nodes: readonly PveNode[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const node of nodes) {
    if (node.status === 'online') continue
    let names = out.get(node.instance)
    if (!names) out.set(node.instance, (names = new Set()))
    names.add(node.name)
  }
  return out
}

const idLabel = (id: string) => `{id="${escapeLabelValue(id)}"}`
/** One `name="value"` label, the value escaped; a missing value is ''. */
const pair = (name: string, value: unknown) => `${name}="${escapeLabelValue(String(value ?? ''))}"`

function writeGuest(f: Families, guest: Guest, active: boolean): void {
  const type = guest.type === 'lxc' ? 'lxc' : 'qemu'
  const id = pair('id', `${type}/${guest.id}`)
  const labels = `{${id}}`
  const tags = Array.isArray(guest.tags) ? guest.tags.join(';') : ''
  f.up.add(labels, active ? 1 : 0)
  f.guestInfo.add(
    `{${id},${pair('name', guest.name)},${pair('node', guest.node)},type="${type}",` +
      `${pair('tags', tags)},vmid="${guest.vmid}",${pair('cluster', guest.instance)},` +
      `template="${guest.template ? 1 : 0}"}`,
    1,
  )
  if (guest.cpus > 0) f.cpuLimit.add(labels, guest.cpus)
  const memory = guest.memory
  if (memory?.total > 0) f.memSize.add(labels, memory.total)
  const disk = guest.disk
  if (disk?.total > 0) f.diskSize.add(labels, disk.total)
  // An inactive guest shows '-' for every usage figure: none is sent.
  if (!active) return
  f.cpu.add(labels, guest.cpu)
  if (memory?.total > 0) f.memUsed.add(labels, memory.used)
  // A VM's disk without the guest agent is unknown (usage -1), not empty.
  if (disk && (disk.usage >= 0 || (disk.usage === undefined && disk.total > 0))) {
    f.diskUsed.add(labels, disk.used)
  }
  f.uptime.add(labels, guest.uptime)
  f.netIn.add(labels, guest.networkIn)
  f.netOut.add(labels, guest.networkOut)
  f.diskRead.add(labels, guest.diskRead)
  f.diskWrite.add(labels, guest.diskWrite)
}

function writeNode(f: Families, node: PveNode): void {
  const id = `node/${node.id}`
  const labels = idLabel(id)
  const online = node.status === 'online'
  f.up.add(labels, online ? 1 : 0)
  f.nodeInfo.add(
    `{${pair('id', id)},${pair('name', node.name)},${pair('cluster', node.instance)},` +
      `${pair('version', node.pveVersion)}}`,
    1,
  )
  // An offline or unknown node carries no stats (collect/pve-nodes.ts).
  if (!online) return
  f.cpu.add(labels, node.cpu)
  if (node.cpuInfo?.cores > 0) f.cpuLimit.add(labels, node.cpuInfo.cores)
  if (node.memory?.total > 0) {
    f.memUsed.add(labels, node.memory.used)
    f.memSize.add(labels, node.memory.total)
  }
  if (node.disk?.total > 0) {
    f.diskUsed.add(labels, node.disk.used)
    f.diskSize.add(labels, node.disk.total)
  }
  f.uptime.add(labels, node.uptime)
}

function writeStorage(f: Families, storage: Storage): void {
  const id = `storage/${storage.id}`
  const labels = idLabel(id)
  f.up.add(labels, storage.status === 'available' ? 1 : 0)
  f.shared.add(labels, storage.shared ? 1 : 0)
  f.storageInfo.add(
    `{${pair('id', id)},${pair('node', storage.node)},${pair('storage', storage.name)},` +
      `${pair('plugintype', storage.type)},${pair('content', storage.content)},` +
      `${pair('cluster', storage.instance)}}`,
    1,
  )
  // An inactive or unreadable storage reports zeros: its size is unknown, not 0.
  if (storage.total > 0) {
    f.diskUsed.add(labels, storage.used)
    f.diskSize.add(labels, storage.total)
  }
}

function writePbs(f: Families, pbs: PbsInstance): void {
  const id = `pbs/${pbs.id}`
  const labels = idLabel(id)
  const online = pbs.status === 'online'
  f.up.add(labels, online ? 1 : 0)
  f.pbsInfo.add(`{${pair('id', id)},${pair('name', pbs.name)},${pair('version', pbs.version)}}`, 1)
  if (online) {
    // PBS cpu is a percent on our wire (0-100): the ratio is that / 100.
    f.cpu.add(labels, pbs.cpu / 100)
    if (pbs.memoryTotal > 0) {
      f.memUsed.add(labels, pbs.memoryUsed)
      f.memSize.add(labels, pbs.memoryTotal)
    }
    f.uptime.add(labels, pbs.uptime)
  }
  for (const store of pbs.datastores ?? []) {
    const storeId = `datastore/${pbs.id}/${store.name}`
    const storeLabels = idLabel(storeId)
    const available = online && store.status === 'available'
    f.up.add(storeLabels, available ? 1 : 0)
    f.datastoreInfo.add(
      `{${pair('id', storeId)},${pair('pbs', pbs.name)},${pair('datastore', store.name)}}`,
      1,
    )
    if (available && store.total > 0) {
      f.diskUsed.add(storeLabels, store.used)
      f.diskSize.add(storeLabels, store.total)
    }
  }
}

/**
 * The resource families of `state` as text buffers taken from `source`, in one pass over the
 * guests. A generator: it yields every GUESTS_PER_STEP guests, so run-sliced.ts can give the loop
 * its turns at 100k.
 */
export function* resourceMetricSteps(
  state: State,
  source: ChunkSource,
): Generator<void, Buffer[], void> {
  const f = createFamilies(source)
  for (const node of state.nodes) writeNode(f, node)
  const offline = offlineNodes(state.nodes)
  let written = 0
  for (const guests of [state.vms, state.containers]) {
    for (const guest of guests) {
      const active =
        guest.status === 'running' &&
        !(offline.size > 0 && offline.get(guest.instance)?.has(guest.node))
      writeGuest(f, guest, active)
      if (++written % GUESTS_PER_STEP === 0) yield
    }
  }
  for (const storage of state.storage) writeStorage(f, storage)
  for (const pbs of state.pbs) writePbs(f, pbs)
  const out: Buffer[] = []
  writeFamilies(out, Object.values(f))
  return out
}
