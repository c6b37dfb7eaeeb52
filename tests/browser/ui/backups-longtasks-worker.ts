// A real Web Worker for the long-task test: it runs the backups pipeline over 100,000 generated
// records off the main thread, as the app's worker does, so the page only pays for rendering.
import { createBackupEstate } from '../../../bench/backups.ts'
import type { BackupsViewRequest } from '../../../src/shared/views/backups-types.ts'
import { createBackupsViewPipeline } from '../../../src/shared/views/backups-view.ts'

const input = createBackupEstate(100_000, Math.floor(Date.now() / 1000))
const pipeline = createBackupsViewPipeline()
let version = 0

self.onmessage = (event: MessageEvent<{ id: number; request: BackupsViewRequest }>) => {
  const { id, request } = event.data
  const model = { ...pipeline.compute(input, request), version: ++version }
  self.postMessage({ id, model })
}
