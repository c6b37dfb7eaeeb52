// Runs tests/e2e/support/run-sims.ts as a child process and reads its connection details.
import { spawn, type ChildProcess } from 'node:child_process'

export interface SimDetails {
  pve: {
    name: string
    url: string
    nodeNames: string[]
    tokenId: string
    tokenSecret: string
    fingerprint: string
    guests: number
  }
  pbs: { name: string; url: string; tokenId: string; tokenSecret: string; fingerprint: string }
}

export interface SimProcess {
  details: SimDetails
  stop(): Promise<void>
}

/** Start the simulators; resolves once they listen. */
export async function startSims(): Promise<SimProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['node_modules/tsx/dist/cli.mjs', 'tests/e2e/support/run-sims.ts'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  const details = await new Promise<SimDetails>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`simulators did not start:\n${output}`)),
      60_000,
    )
    child.stderr?.on('data', (d) => (output += d))
    child.stdout?.on('data', (d) => {
      output += d
      const line = output.split('\n').find((l) => l.startsWith('{'))
      if (!line) return
      clearTimeout(timer)
      resolve(JSON.parse(line) as SimDetails)
    })
    child.once('exit', (code) => reject(new Error(`simulators exited (${code}):\n${output}`)))
  })
  return {
    details,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
        setTimeout(() => child.kill('SIGKILL'), 5000).unref()
      }),
  }
}
