// Builds the SPA (vite build) when dist/ is missing or older than its sources. Used by
// `npm start` and `npm run demo`, so a fresh clone serves the UI on its first start.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const SOURCES = [
  'index.html',
  'src/ui',
  'src/worker',
  'src/shared',
  'vite.config.ts',
  'package.json',
]

function newestMtime(target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false })
  if (!stat) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)))
  return newest
}

/** Build into `root`/dist if needed; returns false when the build was needed and failed. */
export function ensureBuilt(root, label) {
  const built = path.join(root, 'dist', 'index.html')
  const sourceTime = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))))
  const builtTime = fs.statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0
  if (builtTime >= sourceTime) return true
  const vite = path.join(root, 'node_modules/vite/bin/vite.js')
  if (!fs.existsSync(vite)) {
    // An install without dev dependencies cannot build; a dist/ copied in is served as it is.
    console.warn(
      `${label}: vite is not installed, cannot build the web UI (npm install, then npm run build)`,
    )
    return builtTime > 0
  }
  console.log(`${label}: building the web UI (vite build)...`)
  const result = spawnSync(process.execPath, [vite, 'build'], { cwd: root, stdio: 'inherit' })
  return result.status === 0
}
