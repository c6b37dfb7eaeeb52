// A worker thread whose entry is TypeScript: tsx's loader is registered inside it before the entry
// is imported (under `tsx` the loader is inherited too; registering twice is harmless).
import { Worker } from 'node:worker_threads'

const BOOT = `const { workerData } = require('node:worker_threads')
import(workerData.tsx).then((m) => { m.register(); return import(workerData.entry) })`

/** Start `entry` (a module URL) in a thread; `data` is its workerData (plus `entry` and `tsx`). */
export function startTsWorker(entry: URL, data: Record<string, unknown>): Worker {
  return new Worker(BOOT, {
    eval: true,
    workerData: { ...data, entry: entry.href, tsx: import.meta.resolve('tsx/esm/api') },
  })
}
