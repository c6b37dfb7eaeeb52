#!/usr/bin/env node
// `npm run demo`: build the SPA if it is missing or older than its sources, then start the
// server in demo mode (simulated Proxmox estate on loopback). Same env names as `npm start`.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureBuilt } from './ensure-built.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
if (!ensureBuilt(root, 'demo')) process.exit(1)

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
