// Hardware and software profiles a simulated node may get. Values follow reference §6.1 and §6.3.

import type { Rng } from './prng.ts'
import { createHex } from './prng.ts'
import type { SimCpuInfo, SimVersion } from './model.ts'

const GIB = 1024 ** 3

interface Release {
  version: string
  kernelRelease: string
  kernelBuild: string
}

// Mixed on purpose: the monitor must cope with 8.x and 9.x side by side.
const RELEASES: readonly Release[] = [
  { version: '8.4.14', kernelRelease: '6.8.12-15-pve', kernelBuild: '(2025-09-12T11:02Z)' },
  { version: '9.1.2', kernelRelease: '6.17.4-1-pve', kernelBuild: '(2025-12-03T15:42Z)' },
  { version: '8.3.5', kernelRelease: '6.8.12-8-pve', kernelBuild: '(2025-01-24T12:32Z)' },
  { version: '9.0.11', kernelRelease: '6.14.11-4-pve', kernelBuild: '(2025-10-10T08:04Z)' },
  { version: '8.4.1', kernelRelease: '6.8.12-9-pve', kernelBuild: '(2025-03-16T19:18Z)' },
]

/** Picks the PVE release of cluster i: deterministic by index so cluster 0 is always 8.4.14. */
export function chooseVersion(rng: Rng, index: number): SimVersion {
  const release = RELEASES[index % RELEASES.length] ?? RELEASES[0]!
  const [major = '8', minor = '0'] = release.version.split('.')
  const kpatch = release.kernelRelease.replace(/-pve$/, '')
  return {
    version: release.version,
    release: `${major}.${minor}`,
    repoid: createHex(rng, 16),
    major: Number(major),
    kernelRelease: release.kernelRelease,
    kernelVersion: `#1 SMP PREEMPT_DYNAMIC PMX ${kpatch} ${release.kernelBuild}`,
  }
}

interface Hardware {
  model: string
  sockets: number
  cores: number
  threadsPerCore: number
  mhz: string
  memGiB: readonly number[]
}

const HARDWARE: readonly Hardware[] = [
  {
    model: 'AMD EPYC 7313P 16-Core Processor',
    sockets: 1,
    cores: 16,
    threadsPerCore: 2,
    mhz: '3000.000',
    memGiB: [256, 512],
  },
  {
    model: 'AMD EPYC 9354 32-Core Processor',
    sockets: 2,
    cores: 32,
    threadsPerCore: 2,
    mhz: '3250.000',
    memGiB: [768, 1024, 1536],
  },
  {
    model: 'Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz',
    sockets: 2,
    cores: 32,
    threadsPerCore: 2,
    mhz: '2000.000',
    memGiB: [512, 1024],
  },
  {
    model: 'Intel(R) Xeon(R) Silver 4314 CPU @ 2.40GHz',
    sockets: 2,
    cores: 16,
    threadsPerCore: 2,
    mhz: '2400.000',
    memGiB: [256, 384, 512],
  },
  {
    model: 'AMD Ryzen 9 5950X 16-Core Processor',
    sockets: 1,
    cores: 16,
    threadsPerCore: 2,
    mhz: '3400.000',
    memGiB: [64, 128],
  },
]

const FLAGS =
  'fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid aperfmperf pni pclmulqdq monitor ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand lahf_lm abm 3dnowprefetch cpb cat_l3 cdp_l3 hw_pstate ssbd mba ibrs ibpb stibp vmx svm fsgsbase bmi1 avx2 smep bmi2 erms invpcid cqm rdt_a rdseed adx smap clflushopt clwb sha_ni xsaveopt xsavec xgetbv1 xsaves cqm_llc cqm_occup_llc'

/** Hardware of one node: its cpuinfo plus thread count, memory and root disk size. */
export interface NodeHardware {
  cpuinfo: SimCpuInfo
  maxcpu: number
  maxmem: number
  maxdisk: number
}

/**
 * Picks node hardware for a cluster profile. Memory is raised when the guests planned on the node
 * would not fit, so node `mem` never looks absurd next to its guests.
 */
export function chooseHardware(rng: Rng, profile: number, plannedGuestMem: number): NodeHardware {
  const hw = HARDWARE[profile % HARDWARE.length] ?? HARDWARE[0]!
  let maxmem = rng.pick(hw.memGiB) * GIB
  while (maxmem < plannedGuestMem * 0.9) maxmem *= 2
  // Installed RAM minus firmware reservations, like the real `total` (never a round number).
  maxmem -= rng.int(200, 900) * 1024 * 1024
  return {
    cpuinfo: { model: hw.model, sockets: hw.sockets, cores: hw.cores, mhz: hw.mhz, flags: FLAGS },
    maxcpu: hw.sockets * hw.cores * hw.threadsPerCore,
    maxmem,
    maxdisk: rng.pick([100861726720, 68959993856, 236147310592]),
  }
}
