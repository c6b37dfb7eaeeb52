// Shared pieces of the history tests: the recorded RRD answers, resources, and a recent store.
// The recent store here is a small fake implementing the RecentStore interface: the real one
// (src/server/history/recent-store.ts) is built on another branch (i25-store).
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createPveClient, type PveClient } from '../../../../src/server/collect/pve-client.ts'
import type { Storage } from '../../../../src/shared/model/state.ts'
import {
  createTestCert,
  startStubPve,
  type StubHandler,
  type StubPve,
} from '../collect/stub-pve.ts'
import type { HistoryMetric, HistorySeries } from '../../../../src/shared/model/history.ts'
import type { ResolvedResource } from '../../../../src/server/history/resolve.ts'
import type { RecentStore } from '../../../../src/server/history/types.ts'

const FIXTURES = path.join(process.cwd(), 'tests/fixtures/proxmox/pve')

/** The `data` rows of a recorded answer in tests/fixtures/proxmox/pve. */
export function recorded(name: string): Record<string, unknown>[] {
  const body = JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as { data: [] }
  return body.data
}

export const NODE_HOUR = 'node-rrddata-hour__pulse-pve9.2.3.json'
export const LXC_HOUR = 'lxc-rrddata-hour__pulse-pve9.2.3.json'
export const QEMU_YEAR = 'qemu-rrddata-year__pulse-pve9.2.3.json'

export const NODE: ResolvedResource = {
  kind: 'node',
  id: 'lab-pve1',
  instance: 'lab',
  node: 'pve1',
  nodeDown: false,
}
export const LXC: ResolvedResource = {
  kind: 'guest',
  id: 'lab-pve1-101',
  instance: 'lab',
  node: 'pve1',
  vmid: 101,
  type: 'lxc',
  nodeDown: false,
}
export const QEMU: ResolvedResource = { ...LXC, id: 'lab-pve1-100', vmid: 100, type: 'qemu' }

/** Per resource and metric, the minutes a fake recent store holds. */
export type RecentData = Record<string, Partial<Record<HistoryMetric, HistorySeries>>>

/** A RecentStore over fixed data (a fake: the real store is built on branch i25-store). */
export function fakeRecentStore(data: RecentData, retentionMinutes = 120): RecentStore {
  return {
    record: () => undefined,
    series(id, metrics, sinceSec) {
      const held = data[id]
      if (!held) return undefined
      const out: Partial<Record<HistoryMetric, HistorySeries>> = {}
      for (const metric of metrics) {
        const s = held[metric]
        if (!s) continue
        const keep = s.time.map((t, i) => (t >= sinceSec ? i : -1)).filter((i) => i >= 0)
        out[metric] = {
          time: keep.map((i) => s.time[i]!),
          avg: keep.map((i) => s.avg[i] ?? null),
          max: keep.map((i) => s.max?.[i] ?? null),
        }
      }
      return out
    },
    retentionMinutes,
    setRetentionMinutes: () => undefined,
    stats: () => ({ resources: Object.keys(data).length, bytes: 0, retentionMinutes }),
  }
}

/** `count` minutes ending at `lastSec`, values from `value(i)`. */
export function minutes(
  lastSec: number,
  count: number,
  value: (i: number) => number | null,
): HistorySeries {
  const time = Array.from({ length: count }, (_, i) => lastSec - (count - 1 - i) * 60)
  const avg = time.map((_, i) => value(i))
  return { time, avg, max: avg.map((v) => (v === null ? null : v + 1)) }
}

/**
 * A real HTTPS stub of Proxmox on 127.0.0.1 (collect/stub-pve.ts) and a client of it for the
 * calling file: started before its tests, its requests emptied after each, closed after them.
 */
export function useRrdStub(handler: StubHandler): () => { stub: StubPve; client: PveClient } {
  let stub: StubPve | undefined
  let client: PveClient | undefined
  beforeAll(async () => {
    stub = await startStubPve(await createTestCert(), handler)
    client = createPveClient({
      host: stub.url,
      auth: { kind: 'token', tokenId: 'pulse@pve!history', secret: 'secret' },
      verifySSL: false,
      maxConcurrency: 8,
    })
  })
  afterEach(() => {
    stub!.requests.length = 0
  })
  afterAll(async () => {
    await client?.close()
    await stub?.close()
  })
  return () => ({ stub: stub!, client: client! })
}

export const TB = 1e12

/** An available 1 TB storage of instance `lab`, 605 GB used. */
export function makeStorage(node: string, name: string, shared = false): Storage {
  return {
    id: `lab-${node}-${name}`,
    name,
    node,
    instance: 'lab',
    type: shared ? 'nfs' : 'dir',
    content: 'images',
    status: 'available',
    shared,
    enabled: true,
    active: true,
    total: TB,
    used: 605e9,
    free: TB - 605e9,
    usage: 60.5,
  }
}

/** 30 days of month RRD rows (30 min steps) ending at `nowS`, `used` from `at(days before now)`. */
export function monthRows(nowS: number, at: (day: number) => number) {
  return Array.from({ length: 1440 }, (_, i) => {
    const time = nowS - (1439 - i) * 1800
    return { time, total: TB, used: at((time - nowS) / 86_400) }
  })
}
