// QMP `query-blockstats` per drive, as status/current shows it under `blockstat`: scsi0 (boot),
// scsi1 (data disk, when there is one) and the ide2 CD drive, consistent with diskread/diskwrite.

import type { SimGuest } from './model.ts'

/** Builds `blockstat` for a running VM from its cumulative disk counters. */
export function renderBlockstat(g: SimGuest, dataDisk: boolean): Record<string, object> {
  const bootShare = dataDisk ? 0.65 : 1
  const out: Record<string, object> = {
    scsi0: drive(
      Math.round(g.diskread * bootShare),
      Math.round(g.diskwrite * bootShare),
      g.maxdisk,
    ),
  }
  if (dataDisk) {
    out.scsi1 = drive(
      Math.round(g.diskread * (1 - bootShare)),
      Math.round(g.diskwrite * (1 - bootShare)),
      g.maxdisk * 4,
    )
  }
  // The CD drive holds the cloud-init or install ISO: a few reads at boot, never writes.
  out.ide2 = drive(g.diskread > 0 ? 344_162 : 0, 0, 0)
  return out
}

function drive(rd: number, wr: number, size: number): object {
  const rdOps = Math.round(rd / 32_768)
  const wrOps = Math.round(wr / 16_384)
  return {
    rd_bytes: rd,
    wr_bytes: wr,
    rd_operations: rdOps,
    wr_operations: wrOps,
    flush_operations: Math.round(wrOps / 20),
    unmap_operations: Math.round(wrOps / 300),
    unmap_bytes: Math.round(wr / 12),
    rd_total_time_ns: rdOps * 180_000,
    wr_total_time_ns: wrOps * 420_000,
    flush_total_time_ns: Math.round(wrOps / 20) * 900_000,
    unmap_total_time_ns: Math.round(wrOps / 300) * 60_000,
    rd_merged: 0,
    wr_merged: 0,
    unmap_merged: 0,
    wr_highest_offset: Math.min(size, wr),
    idle_time_ns: 1_200_000_000 + (rdOps % 9_000_000),
    failed_rd_operations: 0,
    failed_wr_operations: 0,
    failed_flush_operations: 0,
    failed_unmap_operations: 0,
    invalid_rd_operations: 0,
    invalid_wr_operations: 0,
    invalid_flush_operations: 0,
    invalid_unmap_operations: 0,
    account_invalid: true,
    account_failed: true,
    timed_stats: [],
  }
}
