// Renders /nodes/{n}/disks/list, disks/smart and the ZFS endpoints. Quirks kept from real PVE:
// `wearout` is 'N/A' on spinning disks, `rpm` is sometimes a string, OSD ids are strings while
// -1 is a number, `osdid-list` is null on non-OSD disks, SAS health reads 'OK'.

import type { SimClusterModel, SimDisk, SimZfsPool, SimZfsVdev } from './model.ts'

/** `data` of GET /nodes/{n}/disks/list. */
export function renderDiskList(
  disks: readonly SimDisk[],
  options: { skipsmart: boolean; type: string | undefined },
): object[] {
  return disks
    .filter((d) => options.type !== 'unused' || d.used === '')
    .filter((d) => options.type !== 'journal_disks' || (d.type !== 'hdd' && d.osdid < 0))
    .map((d) => {
      const e: Record<string, unknown> = {
        devpath: d.devpath,
        type: d.type,
        model: d.model,
        serial: d.serial,
        vendor: d.vendor,
        wwn: d.wwn,
        size: d.size,
        rpm: d.rpm,
        gpt: d.type === 'usb' ? 0 : 1,
        mounted: 0,
        osdid: d.osdid >= 0 ? String(d.osdid) : -1,
        'osdid-list': d.osdid >= 0 ? [String(d.osdid)] : null,
        by_id_link: `/dev/disk/by-id/${d.byId}`,
      }
      if (!options.skipsmart) {
        e.health = d.health
        e.wearout = d.wearout
      }
      if (d.used !== '') e.used = d.used
      if (d.osdid >= 0) Object.assign(e, { bluestore: 1, osdencrypted: 0 })
      return e
    })
}

/** The disk temperature now: its resting value plus a slow daily swing. */
export function diskTemperature(cluster: SimClusterModel, d: SimDisk): number {
  const hour = (cluster.lastTickMs / 3_600_000) % 24
  return Math.round(d.tempBase + 2.5 * Math.sin(((hour - 15) / 24) * 2 * Math.PI))
}

/** `data` of GET /nodes/{n}/disks/smart for one disk. */
export function renderSmart(cluster: SimClusterModel, d: SimDisk, healthOnly: boolean): object {
  if (healthOnly || d.type === 'usb') return { health: d.health }
  const temp = diskTemperature(cluster, d)
  if (d.type === 'nvme')
    return { health: d.health, type: 'text', text: nvmeText(d, temp), wearout: d.wearout }
  if (d.sas) return { health: d.health, type: 'text', text: sasText(d, temp), wearout: 100 }
  return { health: d.health, type: 'ata', attributes: ataAttributes(d, temp) }
}

function nvmeText(d: SimDisk, temp: number): string {
  const used = typeof d.wearout === 'number' ? 100 - d.wearout : 0
  const units = Math.round(d.powerOnHours * 1800)
  const lines = [
    '',
    'SMART/Health Information (NVMe Log 0x02)',
    `Critical Warning:                   0x${d.health === 'FAILED' ? '04' : '00'}`,
    `Temperature:                        ${temp} Celsius`,
    'Available Spare:                    100%',
    'Available Spare Threshold:          10%',
    `Percentage Used:                    ${used}%`,
    `Data Units Read:                    ${units.toLocaleString('en-US')} [${Math.round((units * 512) / 1e9)} GB]`,
    `Data Units Written:                 ${(units * 3).toLocaleString('en-US')} [${Math.round((units * 1536) / 1e12)} TB]`,
    `Power Cycles:                       ${Math.round(d.powerOnHours / 900) + 4}`,
    `Power On Hours:                     ${d.powerOnHours.toLocaleString('en-US')}`,
    `Unsafe Shutdowns:                   ${Math.round(d.powerOnHours / 5000)}`,
    'Media and Data Integrity Errors:    0',
    'Error Information Log Entries:      0',
    '',
  ]
  return lines.join('\n')
}

function sasText(d: SimDisk, temp: number): string {
  return [
    '',
    'Percentage used endurance indicator: 0%',
    `Current Drive Temperature:     ${temp} C`,
    'Drive Trip Temperature:        60 C',
    '',
    `Accumulated start-stop cycles:  ${Math.round(d.powerOnHours / 700)}`,
    'Elements in grown defect list: 0',
    '',
    `  number of hours powered up = ${d.powerOnHours}.42`,
    '',
  ].join('\n')
}

// smartctl's attribute table as PVE parses it: ids space-padded, raw values free text.
function ataAttributes(d: SimDisk, temp: number): object[] {
  const failed = d.health === 'FAILED'
  const attr = (
    id: number,
    name: string,
    value: number,
    worst: number,
    threshold: number,
    raw: string,
    flags: string,
  ): object => ({
    id: String(id).padStart(3, ' '),
    name,
    value,
    worst,
    threshold,
    raw,
    fail: failed && id === 5 ? 'FAILING_NOW' : '-',
    flags,
    normalized: value,
  })
  const out = [
    attr(
      1,
      'Raw_Read_Error_Rate',
      failed ? 62 : 100,
      failed ? 51 : 100,
      6,
      failed ? '2861044' : '0',
      'POSR--',
    ),
    attr(
      5,
      'Reallocated_Sector_Ct',
      failed ? 3 : 100,
      failed ? 3 : 100,
      10,
      failed ? '3896' : '0',
      'PO--CK',
    ),
    attr(9, 'Power_On_Hours', 90, 90, 0, String(d.powerOnHours), '-O--CK'),
    attr(
      12,
      'Power_Cycle_Count',
      100,
      100,
      20,
      String(Math.round(d.powerOnHours / 900) + 4),
      '-O--CK',
    ),
  ]
  if (d.type === 'ssd' && typeof d.wearout === 'number') {
    out.push(
      attr(
        177,
        'Wear_Leveling_Count',
        d.wearout,
        d.wearout,
        0,
        String((100 - d.wearout) * 30),
        'PO--C-',
      ),
    )
  }
  out.push(
    attr(
      194,
      'Temperature_Celsius',
      100 - temp,
      100 - temp - 8,
      0,
      `${temp} (Min/Max 20/${temp + 9})`,
      '-O---K',
    ),
    attr(197, 'Current_Pending_Sector', 100, 100, 0, failed ? '88' : '0', '-O--C-'),
    attr(199, 'UDMA_CRC_Error_Count', 200, 200, 0, '0', '-OSRCK'),
  )
  return out
}

/** Raw bytes a pool has allocated: its storage's volumes (parity included) plus the rest. */
export function poolAlloc(cluster: SimClusterModel, node: number, pool: SimZfsPool): number {
  const storage = cluster.storages.find((s) => s.pool === pool.name)
  const volumes = (storage?.used[node] ?? 0) * pool.rawFactor
  const root = pool.name === 'rpool' ? (cluster.nodes[node]?.rootUsed ?? 0) : 0
  return Math.min(pool.size, Math.round(volumes + root + pool.baseAlloc))
}

/** `data` of GET /nodes/{n}/disks/zfs. */
export function renderZfsList(cluster: SimClusterModel, node: number): object[] {
  return (cluster.zfsPools[node] ?? []).map((pool) => {
    const alloc = poolAlloc(cluster, node, pool)
    return {
      name: pool.name,
      size: pool.size,
      alloc,
      free: pool.size - alloc,
      frag: pool.frag,
      dedup: 1,
      health: pool.state,
    }
  })
}

/** `data` of GET /nodes/{n}/disks/zfs/{pool}: the pool itself is the first child of the tree. */
export function renderZfsDetail(pool: SimZfsPool): object {
  const out: Record<string, unknown> = { name: pool.name, state: pool.state }
  if (pool.status !== undefined) out.status = pool.status
  if (pool.action !== undefined) out.action = pool.action
  out.scan = pool.scan
  out.errors = pool.errors
  out.children = [
    {
      name: pool.name,
      state: pool.state,
      read: 0,
      write: 0,
      cksum: 0,
      msg: '',
      children: pool.vdevs.map(renderVdev),
    },
  ]
  return out
}

function renderVdev(v: SimZfsVdev): object {
  const e: Record<string, unknown> = {
    name: v.name,
    state: v.state,
    read: v.read,
    write: v.write,
    cksum: v.cksum,
    msg: v.msg,
  }
  if (v.children !== undefined && v.children.length > 0) e.children = v.children.map(renderVdev)
  else e.leaf = 1
  return e
}
