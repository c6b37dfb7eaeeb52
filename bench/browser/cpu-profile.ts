// A CDP sampling profile of the page's main thread, mapped through the built app's source maps
// (dist/assets/*.js.map) to the original files: self time per source file and per function, to
// say where a long task's time goes. Used by history-100k.spec.ts.
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { CDPSession } from '@playwright/test'
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js'

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url))

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
}

interface Profile {
  nodes: ProfileNode[]
  samples?: number[]
  timeDeltas?: number[]
}

export async function startProfile(cdp: CDPSession): Promise<void> {
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 })
  await cdp.send('Profiler.start')
}

const consumers = new Map<string, SourceMapConsumer | null>()

/** The source map of a built asset (by its URL's path), or null. */
function consumerFor(url: string): SourceMapConsumer | null {
  const file = /\/assets\/[^/?#]+\.js/.exec(url)?.[0]
  if (!file) return null
  if (!consumers.has(file)) {
    const mapFile = `${DIST}${file.slice(1)}.map`
    consumers.set(
      file,
      fs.existsSync(mapFile)
        ? new SourceMapConsumer(JSON.parse(fs.readFileSync(mapFile, 'utf8')) as RawSourceMap)
        : null,
    )
  }
  return consumers.get(file)!
}

/** "src/ui/x.ts" or "uplot" or "(program)"; with the function name and line. */
function place(frame: ProfileNode['callFrame']): { file: string; fn: string } {
  if (!frame.url) return { file: frame.functionName || '(native)', fn: frame.functionName }
  const map = consumerFor(frame.url)
  if (!map) return { file: frame.url, fn: `${frame.functionName} :${frame.lineNumber + 1}` }
  const pos = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber })
  const source = (pos.source ?? frame.url).replace(/^(\.\.\/)+/, '')
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1]
  const file = pkg ?? source
  return { file, fn: `${pos.name ?? (frame.functionName || '(anonymous)')} ${source}:${pos.line}` }
}

function top(map: Map<string, number>, n: number, totalUs: number) {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({
      name,
      ms: Math.round(us / 100) / 10,
      share: Math.round((us / totalUs) * 1000) / 10,
    }))
}

/** Stops the profile; self time by source file (or package) and by function, largest first. */
export async function stopProfile(cdp: CDPSession, n = 12) {
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile }
  await cdp.send('Profiler.disable')
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const byFile = new Map<string, number>()
  const byFn = new Map<string, number>()
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  let totalUs = 0
  let idleUs = 0
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i]!)
    const us = deltas[i + 1] ?? 0
    if (!node) continue
    if (node.callFrame.functionName === '(idle)') {
      idleUs += us
      continue
    }
    totalUs += us
    const { file, fn } = place(node.callFrame)
    byFile.set(file, (byFile.get(file) ?? 0) + us)
    byFn.set(fn, (byFn.get(fn) ?? 0) + us)
  }
  return {
    busyMs: Math.round(totalUs / 1000),
    idleMs: Math.round(idleUs / 1000),
    byFile: top(byFile, n, totalUs || 1),
    byFunction: top(byFn, n, totalUs || 1),
  }
}
