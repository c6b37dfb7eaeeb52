// The webhook template render bound (issue 24, item 7): what a normal render costs, and how soon
// a hostile template is stopped. `npm run bench -- template-render`, or standalone
// `npx tsx bench/template-render.ts`. Every case runs through the server's own engine
// (src/server/notify/webhook/liquid-engine.ts) with the data a delivery builds.
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import {
  FILTER_ITEMS_MAX,
  RENDER_BOUND_MS,
  RENDER_LIMIT_MS,
  RENDER_MEMORY_LIMIT,
  renderTemplate,
  TemplateBoundError,
} from '../src/server/notify/webhook/liquid-engine.ts'
import { sampleBatch } from '../src/server/notify/webhook/sample.ts'
import { CUSTOM_ALERTS_MAX, templateData } from '../src/server/notify/webhook/template-data.ts'
import { webhookTemplate } from '../src/server/notify/webhook/templates.ts'
import type { Webhook } from '../src/shared/model/notifications.ts'
import { measure, printTable, type BenchResult } from './harness.ts'

const NOW = Date.parse('2025-01-01T10:00:00.000Z')

const webhook = (service: Webhook['service'], template = ''): Webhook => ({
  id: 'bench',
  name: 'bench',
  url: 'https://receiver.example.test/hook',
  method: 'POST',
  headers: {},
  enabled: true,
  service,
  template,
  customFields: {},
  secretFields: [],
})

/** A custom template an administrator might write: every alert of the group, a few fields each. */
const LIST_TEMPLATE = `{"text": {{ Title | json }}, "alerts": [{% for a in Alerts %}{"id": {{ a.ID | json }}, "level": {{ a.Level | json }}, "resource": {{ a.ResourceName | json }}, "node": {{ a.Node | json }}, "message": {{ a.Message | json }}, "value": {{ a.ValueFormatted | json }}}{% unless forloop.last %},{% endunless %}{% endfor %}], "count": {{ AlertCount }}}`

/** Templates written to hold the event loop, one per bound. */
export const HOSTILE: Record<string, string> = {
  'nested loops (time)':
    '{% for a in (1..100000) %}{% for b in (1..100000) %}{{ b }}{% endfor %}{% endfor %}',
  'one filter over a long range (items)': `{% assign r = (1..30000) %}{{ r | where: "x", 1 | size }}`,
  'a string doubled (memory)':
    '{% assign s = "xxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}',
  'a range at the memory bound (memory, time)':
    '{% for i in (1..1000) %}{% assign r = (1..500000) %}{% endfor %}',
}

export interface HostileResult {
  name: string
  runs: number
  medianMs: number
  maxMs: number
  /** Which bound stopped it on every run ('none' if one run finished). */
  stoppedBy: string
}

function renderNormal(): BenchResult[] {
  const single = sampleBatch(NOW)
  const group = sampleBatch(NOW, CUSTOM_ALERTS_MAX)
  const discord = webhook('discord')
  const listing = webhook('generic', LIST_TEMPLATE)
  const discordData = templateData(single, discord, { now: NOW, chatId: '' })
  const listData = templateData(group, listing, { now: NOW, chatId: '', custom: true })
  return [
    measure({
      name: 'Discord template, one alert',
      size: 1,
      warmup: 50,
      iterations: 500,
      run: () => void renderTemplate(webhookTemplate('discord').payloadTemplate, discordData),
    }),
    measure({
      name: `custom template listing ${CUSTOM_ALERTS_MAX} alerts`,
      size: CUSTOM_ALERTS_MAX,
      warmup: 5,
      iterations: 50,
      run: () => void renderTemplate(LIST_TEMPLATE, listData),
    }),
  ]
}

/** Each hostile template rendered `runs` times: how long until a bound stopped it. */
export function renderHostile(runs = 10): HostileResult[] {
  const data = templateData(sampleBatch(NOW), webhook('generic'), { now: NOW, chatId: '' })
  return Object.entries(HOSTILE).map(([name, source]) => {
    const times: number[] = []
    const bounds = new Set<string>()
    for (let i = 0; i < runs; i++) {
      const start = performance.now()
      try {
        renderTemplate(source, data)
        bounds.add('none')
      } catch (err) {
        bounds.add(err instanceof TemplateBoundError ? err.bound : 'error')
      }
      times.push(performance.now() - start)
    }
    times.sort((a, b) => a - b)
    return {
      name,
      runs,
      medianMs: times[Math.floor(times.length / 2)]!,
      maxMs: times.at(-1)!,
      stoppedBy: [...bounds].join(', '),
    }
  })
}

/**
 * liquidjs checks the clock between template nodes, so a render stops once the node running at
 * the deadline has finished: within the bound means a median under RENDER_BOUND_MS plus a quarter.
 */
export const withinBound = (r: HostileResult): boolean =>
  !r.stoppedBy.includes('none') && r.medianMs <= RENDER_BOUND_MS * 1.25

export function printHostile(results: readonly HostileResult[]): void {
  const load = os.loadavg()[0]!.toFixed(1)
  console.log(
    `\nHostile webhook templates: time until stopped (bound ${RENDER_BOUND_MS} ms: ` +
      `${RENDER_LIMIT_MS} ms a render, tried twice; ` +
      `${RENDER_MEMORY_LIMIT / 1024} KiB, ${FILTER_ITEMS_MAX} items per filter; load ${load})`,
  )
  const width = Math.max(...results.map((r) => r.name.length))
  console.log(`${'template'.padEnd(width)}  runs  median ms  max ms  stopped by  within bound`)
  for (const r of results) {
    const within = withinBound(r) ? 'PASS' : 'FAIL'
    console.log(
      `${r.name.padEnd(width)}  ${String(r.runs).padStart(4)}  ${r.medianMs.toFixed(1).padStart(9)}  ` +
        `${r.maxMs.toFixed(1).padStart(6)}  ${r.stoppedBy.padStart(10)}  ${within.padStart(12)}`,
    )
  }
}

/** Normal renders and hostile ones, for bench/run.ts. */
export function benchTemplateRender(): { normal: BenchResult[]; hostile: HostileResult[] } {
  return { normal: renderNormal(), hostile: renderHostile() }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { normal, hostile } = benchTemplateRender()
  printTable('Webhook templates: one render (size = alerts in the data)', normal)
  printHostile(hostile)
}
