// One discovery scan: every address of a subnet on the Proxmox ports, a bounded number of probes
// at a time, each with short timeouts. Refuses targets the network rule forbids before any probe.
import type { DiscoveredServer } from '../../shared/model/node-config.ts'
import { probeServer, type ProbeOptions, type ProbeResult } from './probe.ts'
import { assertScannable, hostAddresses, type ScanTarget } from './subnet.ts'

/** The Proxmox ports: 8006 PVE, 8007 PBS. */
export const DEFAULT_PORTS: readonly number[] = [8006, 8007]

export interface ScanOptions {
  ports?: readonly number[]
  /** Probes in flight at once. */
  concurrency?: number
  connectTimeoutMs?: number
  requestTimeoutMs?: number
  signal?: AbortSignal
  /** The probe; tests record calls through it. */
  probe?: (ip: string, port: number, options: ProbeOptions) => Promise<ProbeResult>
}

export interface ScanResult {
  servers: DiscoveredServer[]
  errors: string[]
}

/** Scan `target`; throws FIELD_INVALID on subnet (before any probe) when the rule forbids it. */
export async function scanSubnet(
  target: ScanTarget,
  options: ScanOptions = {},
): Promise<ScanResult> {
  assertScannable(target)
  const probe = options.probe ?? probeServer
  const probeOptions: ProbeOptions = {
    connectTimeoutMs: options.connectTimeoutMs ?? 1_000,
    requestTimeoutMs: options.requestTimeoutMs ?? 2_000,
  }
  const ports = options.ports ?? DEFAULT_PORTS
  const jobs = hostAddresses(target.subnet).flatMap((ip) => ports.map((port) => ({ ip, port })))
  const servers: DiscoveredServer[] = []
  const errorCounts = new Map<string, number>()
  let next = 0
  const worker = async () => {
    while (next < jobs.length && !options.signal?.aborted) {
      const job = jobs[next++]!
      const result = await probe(job.ip, job.port, probeOptions)
      if (result.kind === 'found') servers.push(result.server)
      else if (result.kind === 'error') {
        errorCounts.set(result.code, (errorCounts.get(result.code) ?? 0) + 1)
      }
    }
  }
  const width = Math.max(1, Math.min(options.concurrency ?? 64, jobs.length))
  await Promise.all(Array.from({ length: width }, worker))
  const errors = [...errorCounts].map(
    ([code, count]) => `${target.subnet.cidr}: ${code} on ${count} probe(s)`,
  )
  if (options.signal?.aborted) errors.push(`${target.subnet.cidr}: scan stopped`)
  servers.sort((a, b) => compareIp(a.ip, b.ip) || a.port - b.port)
  return { servers, errors }
}

function compareIp(a: string, b: string): number {
  const pa = a.split('.').map(Number)
  const pb = b.split('.').map(Number)
  for (let i = 0; i < 4; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!
  return 0
}
