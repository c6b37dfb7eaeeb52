// Email rendering: one grouped message of 1,000 and 10,000 alert events (subject, text and HTML;
// at most EMAIL_MAX_ROWS rows listed, every event counted). Standalone:
// `npx tsx bench/email-render.ts`; `benchEmailRender()` for bench/run.ts.
import { fileURLToPath } from 'node:url'
import type { Alert } from '../src/shared/model/alerts.ts'
import type { NotificationBatch } from '../src/shared/model/notifications.ts'
import { renderEmail } from '../src/server/notify/email/render.ts'
import { measure, printTable, type BenchResult } from './harness.ts'

const START = Date.parse('2024-03-01T10:00:00.000Z')

function makeBatch(size: number): NotificationBatch {
  const events = Array.from({ length: size }, (_, i) => {
    const alert: Alert = {
      id: `lab-pve${i % 7}-${1000 + i}-cpu`,
      type: 'cpu',
      level: i % 3 === 0 ? 'critical' : 'warning',
      resourceId: `lab-pve${i % 7}-${1000 + i}`,
      resourceName: `vm-${i} <web>`,
      node: `pve${i % 7}`,
      instance: 'lab',
      message: `VM cpu at ${(80 + (i % 20)).toFixed(1)}%`,
      value: 80 + (i % 20),
      threshold: 80,
      peak: 99,
      startTime: new Date(START + i * 1000).toISOString(),
      lastSeen: new Date(START + i * 1000).toISOString(),
      acknowledged: false,
      metadata: { resourceType: 'VM', unit: '%' },
    }
    return { kind: 'fired' as const, alert, at: START + 3_600_000 }
  })
  return { key: `bench-${size}`, events, createdAt: START }
}

/** Median render time of one grouped message. */
export function benchEmailRender(): BenchResult[] {
  return [1_000, 10_000].map((size) => {
    const batch = makeBatch(size)
    return measure({
      name: 'render one grouped email',
      size,
      warmup: 5,
      iterations: 30,
      run: () => void renderEmail(batch, { publicUrl: 'https://pulse.example.test' }),
    })
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printTable('Email: render one grouped message', benchEmailRender())
}
