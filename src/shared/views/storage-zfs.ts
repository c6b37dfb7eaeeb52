// ZFS pool health for the ERRORS badge and the 'ZFS Pool Status' banner (spec 000 §2.3). Pure.
import type { ZfsPool } from '../model/state.ts'
import type { ZfsDeviceIssue, ZfsErrorSummary } from './storage-types.ts'
import { toNumber } from '../model/coerce.ts'

function count(value: unknown): number {
  return Math.max(0, toNumber(value))
}

/**
 * The pool's error summary, or null when it is healthy: state ONLINE, no read, write or checksum
 * errors, and every device ONLINE without errors. Devices listed are the unhealthy ones.
 */
export function summarizeZfsErrors(pool: ZfsPool | undefined | null): ZfsErrorSummary | null {
  if (!pool || typeof pool !== 'object') return null
  const devices: ZfsDeviceIssue[] = []
  for (const device of Array.isArray(pool.devices) ? pool.devices : []) {
    const errors =
      count(device.errors) ||
      count(device.readErrors) + count(device.writeErrors) + count(device.checksumErrors)
    const state = typeof device.state === 'string' ? device.state.toUpperCase() : ''
    if ((state === 'ONLINE' || state === '') && errors === 0) continue
    devices.push({
      name: String(device.name ?? ''),
      state: state || 'UNKNOWN',
      errors,
      message: typeof device.message === 'string' ? device.message : '',
    })
  }
  const state = typeof pool.state === 'string' ? pool.state.toUpperCase() : 'UNKNOWN'
  const readErrors = count(pool.readErrors)
  const writeErrors = count(pool.writeErrors)
  const checksumErrors = count(pool.checksumErrors)
  const healthy =
    state === 'ONLINE' && readErrors + writeErrors + checksumErrors === 0 && devices.length === 0
  if (healthy) return null
  return {
    pool: String(pool.name ?? ''),
    state,
    readErrors,
    writeErrors,
    checksumErrors,
    devices,
  }
}
