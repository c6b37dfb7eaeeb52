#!/usr/bin/env node
// `npm start`: build the SPA if it is missing or older than its sources, then start the server.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureBuilt } from './ensure-built.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
if (!ensureBuilt(root, 'start')) process.exit(1)

const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs')
const child = spawn(process.execPath, [tsx, path.join(root, 'src/server/main.ts')], {
  cwd: root,
  env: process.env,
  stdio: 'inherit',
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(signal ? 0 : (code ?? 0)))
