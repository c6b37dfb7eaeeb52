// The product version, from package.json.
import { readFileSync } from 'node:fs'

/** Version string of this build. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
).version
