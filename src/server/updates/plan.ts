// What applying an update means on each kind of installation (spec 001 §2 System tab: per-deployment
// instructions). Pulse stages a release but never restarts itself: the restart belongs to whatever
// supervises the process, so the message says who does it.
import type { DeploymentType, UpdatePlan } from '../../shared/model/updates.ts'

/** Deployments on which POST /api/updates/apply may stage a release. */
export const canStage = (type: DeploymentType): boolean =>
  type !== 'docker' && type !== 'development'

/** Why apply is refused on this deployment (docker, development), or null. */
export function refusal(type: DeploymentType): string | null {
  if (type === 'docker') {
    return 'Updates cannot be applied inside a Docker container: pull the new image (docker pull) and recreate the container.'
  }
  if (type === 'development') {
    return 'Updates cannot be applied to a development checkout: pull the new version with git and restart npm.'
  }
  return null
}

const INSTRUCTIONS: Record<DeploymentType, (staged: string) => string[]> = {
  proxmoxve: (staged) => [
    `Apply downloads the release, verifies its SHA-256 checksum and stages it in ${staged}.`,
    'Pulse does not restart itself: inside the Pulse container run the helper script\'s "update" command, or copy the staged files over the install and restart the service (systemctl restart pulse).',
  ],
  systemd: (staged) => [
    `Apply downloads the release, verifies its SHA-256 checksum and stages it in ${staged}.`,
    'Pulse does not restart itself: copy the staged files over the install directory, then run: sudo systemctl restart pulse',
  ],
  manual: (staged) => [
    `Apply downloads the release, verifies its SHA-256 checksum and stages it in ${staged}.`,
    'Pulse does not restart itself: stop Pulse, copy the staged files over the install directory, run npm ci --omit=dev there and start Pulse again.',
  ],
  docker: () => [
    'Docker images are updated by pulling the new image, not from inside the container.',
    'docker pull <image>:latest (or the rc tag), then recreate the container (docker compose up -d).',
    'Your settings stay in the data volume.',
  ],
  development: () => [
    'This is a development checkout: update it with git.',
    'git pull, npm ci, then restart npm run dev / npm start.',
  ],
}

/** The plan for this deployment; `staged` is the directory a release would be staged in. */
export function updatePlan(type: DeploymentType, staged: string): UpdatePlan {
  return {
    deploymentType: type,
    canAutoUpdate: canStage(type),
    instructions: INSTRUCTIONS[type](staged),
  }
}

/** The closing message of a successful apply: where the release is and how the restart happens. */
export function completedMessage(type: DeploymentType, version: string, dir: string): string {
  const how =
    type === 'systemd'
      ? 'copy them over the install directory and run "sudo systemctl restart pulse"'
      : type === 'proxmoxve'
        ? 'run the helper script\'s "update" command in the Pulse container, or copy them over the install and run "systemctl restart pulse"'
        : 'stop Pulse, copy them over the install directory, run "npm ci --omit=dev" and start Pulse again'
  return `Pulse ${version} is verified and staged in ${dir}. Pulse does not restart itself: to finish, ${how}.`
}
