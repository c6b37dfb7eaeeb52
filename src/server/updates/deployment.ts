// How this copy was installed (spec 001 §3 Version info): decides whether it may stage an update
// itself and which instructions the user gets. The probes are injectable so tests can pose as any
// installation without touching the real filesystem.
import fs from 'node:fs'
import path from 'node:path'
import { DEPLOYMENT_TYPES, type DeploymentType } from '../../shared/model/updates.ts'

export interface DeploymentProbes {
  env: NodeJS.ProcessEnv
  /** Directory holding package.json (the install root). */
  rootDir: string
  exists: (file: string) => boolean
}

/**
 * PULSE_DEPLOYMENT_TYPE wins (an unknown value throws, naming the variable); else development when
 * a .git entry sits beside package.json (a git checkout is a development copy even inside a
 * container: images ship without .git); else docker when /.dockerenv exists or PULSE_DOCKER=true;
 * else systemd when INVOCATION_ID is set (systemd sets it for every service); else
 * manual. proxmoxve (the LXC helper script install) is only ever declared, never guessed.
 */
export function detectDeploymentType(probes: DeploymentProbes): DeploymentType {
  const declared = (probes.env.PULSE_DEPLOYMENT_TYPE ?? '').trim().toLowerCase()
  if (declared !== '') {
    if (!(DEPLOYMENT_TYPES as readonly string[]).includes(declared)) {
      throw new Error(
        `PULSE_DEPLOYMENT_TYPE must be one of ${DEPLOYMENT_TYPES.join(', ')} (got "${probes.env.PULSE_DEPLOYMENT_TYPE}")`,
      )
    }
    return declared as DeploymentType
  }
  if (probes.exists(path.join(probes.rootDir, '.git'))) return 'development'
  if (probes.exists('/.dockerenv') || /^true$/i.test(probes.env.PULSE_DOCKER ?? '')) return 'docker'
  if ((probes.env.INVOCATION_ID ?? '') !== '') return 'systemd'
  return 'manual'
}

/** The real probes: this process's environment and filesystem. */
export function systemProbes(env: NodeJS.ProcessEnv, rootDir: string): DeploymentProbes {
  return { env, rootDir, exists: (file) => fs.existsSync(file) }
}
