// Browser tier global setup (runs in Node): a real `ws` server on 127.0.0.1 for the worker tests.
import type { TestProject } from 'vitest/node'
import { startScriptedServer } from './worker/scripted-ws-server.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Port of the scripted WebSocket server (tests/browser/worker/scripted-ws-server.ts). */
    wsPort: number
  }
}

/** Start the scripted server and hand its port to the tests; stop it afterwards. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startScriptedServer()
  project.provide('wsPort', server.port)
  return server.close
}
