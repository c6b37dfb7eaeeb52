// Renders /version, /cluster/status, /nodes and /nodes/{node}/status in the real 8.4 / 9.x shapes:
// loadavg and cpuinfo.mhz as strings, memory.available only on PVE 9, 0/1 booleans.

import type { SimClusterModel, SimNode } from './model.ts'
import { renderNodeResource } from './render-resources.ts'

/** `data` of GET /version. */
export function renderVersion(cluster: SimClusterModel): object {
  const { version, release, repoid } = cluster.version
  return { version, release, repoid }
}

/**
 * `data` of GET /cluster/status as member `local` (the node whose endpoint answered) sees it.
 * A standalone host has a single node entry with nodeid 0 and no cluster entry.
 */
export function renderClusterStatus(cluster: SimClusterModel, local = 0): object[] {
  if (cluster.standalone) {
    const node = cluster.nodes[0]
    if (node === undefined) return []
    return [
      {
        type: 'node',
        id: `node/${node.name}`,
        name: node.name,
        nodeid: 0,
        ip: node.ip,
        local: 1,
        online: 1,
        level: node.level,
      },
    ]
  }
  const online = cluster.nodes.filter((n) => n.online).length
  const out: object[] = [
    {
      type: 'cluster',
      id: 'cluster',
      name: cluster.name,
      nodes: cluster.nodes.length,
      quorate: online * 2 > cluster.nodes.length ? 1 : 0,
      version: cluster.nodes.length + 1,
    },
  ]
  cluster.nodes.forEach((node, i) => {
    out.push({
      type: 'node',
      id: `node/${node.name}`,
      name: node.name,
      nodeid: node.nodeid,
      ip: node.ip,
      local: i === local ? 1 : 0,
      online: node.online ? 1 : 0,
      level: node.online ? node.level : '',
    })
  })
  return out
}

/** `data` of GET /nodes: one entry per member, each with the (shared) certificate fingerprint. */
export function renderNodes(cluster: SimClusterModel, fingerprint: string): object[] {
  const nowSec = Math.floor(cluster.lastTickMs / 1000)
  return cluster.nodes.map((node) => ({
    ...renderNodeResource(node, nowSec),
    ssl_fingerprint: fingerprint,
  }))
}

/** `data` of GET /nodes/{node}/status for an online node. */
export function renderNodeStatus(cluster: SimClusterModel, node: SimNode): object {
  const nowSec = Math.floor(cluster.lastTickMs / 1000)
  const { version } = cluster
  const total = node.maxmem
  const used = Math.round(total * node.memFrac)
  // Page cache and reclaimable ARC make `available` larger than `free`.
  const free = Math.round((total - used) * 0.35)
  const memory: Record<string, number> = { total, used, free }
  if (version.major >= 9) memory.available = Math.round((total - used) * 0.92)
  const rootTotal = node.maxdisk
  const rootFree = rootTotal - node.rootUsed
  return {
    cpu: node.cpu,
    wait: node.wait,
    idle: 0,
    uptime: Math.max(0, nowSec - node.bootAt),
    loadavg: [node.load1, node.load5, node.load15].map((v) => v.toFixed(2)),
    cpuinfo: {
      model: node.cpuinfo.model,
      sockets: node.cpuinfo.sockets,
      cores: node.cpuinfo.cores,
      cpus: node.maxcpu,
      mhz: node.cpuinfo.mhz,
      hvm: '1',
      user_hz: 100,
      flags: node.cpuinfo.flags,
    },
    memory,
    swap: { total: node.swapTotal, used: node.swapUsed, free: node.swapTotal - node.swapUsed },
    // ext4 reserves ~5% for root, so `avail` is below `free`.
    rootfs: {
      total: rootTotal,
      used: node.rootUsed,
      avail: Math.max(0, rootFree - Math.round(rootTotal * 0.05)),
      free: rootFree,
    },
    ksm: { shared: node.memFrac > 0.8 ? Math.round(total * (node.memFrac - 0.8) * 0.2) : 0 },
    kversion: `Linux ${version.kernelRelease} ${version.kernelVersion}`,
    'current-kernel': {
      sysname: 'Linux',
      release: version.kernelRelease,
      version: version.kernelVersion,
      machine: 'x86_64',
    },
    'boot-info': { mode: 'efi', secureboot: 0 },
    pveversion: `pve-manager/${version.version}/${version.repoid}`,
  }
}
