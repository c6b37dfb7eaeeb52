#!/usr/bin/env node
// `npm run demo`: build the SPA if it is missing or older than its sources, then start the
// server in demo mode (simulated Proxmox estate on loopback). Same env names as `npm start`.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const built = path.join(root, 'dist', 'index.html')

function newestMtime(target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false })
  if (!stat) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)))
  return newest
}

const sources = [
  'index.html',
  'src/ui',
  'src/worker',
  'src/shared',
  'vite.config.ts',
  'package.json',
]
const sourceTime = Math.max(...sources.map((s) => newestMtime(path.join(root, s))))
const builtTime = fs.statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0
if (builtTime < sourceTime) {
  console.log('demo: building the web UI (vite build)...')
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  )
  if (result.status !== 0) process.exit(result.status ?? 1)
}

const env = {
  ...process.env,
  DEMO_MODE: 'true',
  // The demo shows the estate at once; the UI says authentication is disabled.
  DISABLE_AUTH: process.env.DISABLE_AUTH ?? 'true',
  PULSE_DATA_DIR: process.env.PULSE_DATA_DIR || path.join('data', 'demo'),
}
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs')
const child = spawn(process.execPath, [tsx, path.join(root, 'src/server/main.ts')], {
  cwd: root,
  env,
  stdio: 'inherit',
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(signal ? 0 : (code ?? 0)))
