// Shared set-up of the PVE and PBS tab tests: a stubbed server holding the node list, the
// discovery results and the discovery setting, so a test changes them between polls. The real
// server's routes are tested in tests/unit/server and end to end in tests/e2e. Addresses are
// loopback or under example.com only.
import { expect, vi } from 'vitest'
import { page } from 'vitest/browser'
import { authServer, callsTo, worker, type Json } from './auth-harness.ts'
import { AUTH_DISABLED_STATUS, renderApp } from './render.tsx'

export { callsTo }

export type Routes = Partial<
  Record<string, (body: Json, init: RequestInit | undefined) => Response | Promise<Response>>
>

/** A connected single PVE node signing in with an API token. */
export const PVE_TOKEN_NODE = {
  id: 'pve-1',
  type: 'pve',
  name: 'pve-one',
  host: 'https://pve1.example.com:8006',
  user: '',
  tokenName: 'pulse-monitor@pam!pulse-token',
  hasPassword: false,
  hasToken: true,
  fingerprint: '',
  verifySSL: true,
  status: 'connected',
  monitorVMs: true,
  monitorContainers: true,
  monitorStorage: true,
  monitorBackups: true,
  monitorDatastores: false,
  monitorSyncJobs: false,
  monitorVerifyJobs: false,
  monitorPruneJobs: false,
  monitorGarbageJobs: false,
  temperature: { available: true },
}

/** A PVE cluster signing in with a password; one endpoint offline. */
export const PVE_CLUSTER_NODE = {
  ...PVE_TOKEN_NODE,
  id: 'pve-2',
  name: 'lab-cluster',
  host: 'https://127.0.0.11:8006',
  user: 'root@pam',
  tokenName: '',
  hasPassword: true,
  hasToken: false,
  verifySSL: false,
  status: 'pending',
  temperature: { available: false },
  isCluster: true,
  clusterName: 'lab',
  clusterEndpoints: [
    { NodeName: 'node-a', Host: 'https://127.0.0.11:8006', IP: '127.0.0.11', Online: true },
    { NodeName: 'node-b', Host: 'https://127.0.0.12:8006', IP: '127.0.0.12', Online: false },
  ],
}

/** A PVE node whose last poll failed. */
export const PVE_ERROR_NODE = {
  ...PVE_TOKEN_NODE,
  id: 'pve-3',
  name: 'broken',
  host: 'https://pve3.example.com:8006',
  status: 'error',
  temperature: { available: false },
  error: 'Proxmox rejected the API token for pve3.example.com.',
}

/** A PBS signing in with a token (its user derives from the token id). */
export const PBS_NODE = {
  ...PVE_TOKEN_NODE,
  id: 'pbs-1',
  type: 'pbs',
  name: 'backup-one',
  host: 'https://pbs1.example.com:8007',
  tokenName: 'pulse-monitor@pbs!pulse-token',
  status: 'disconnected',
  monitorVMs: false,
  monitorContainers: false,
  monitorStorage: false,
  monitorBackups: false,
  monitorDatastores: true,
  monitorSyncJobs: true,
  monitorVerifyJobs: true,
  monitorPruneJobs: true,
  monitorGarbageJobs: true,
  temperature: { available: false },
}

export const SETTINGS_ON = { discoveryEnabled: true, discoverySubnet: 'auto', envOverrides: {} }

/** GET /api/discover with nothing found and no scan yet. */
export const DISCOVERY_EMPTY = {
  servers: [],
  errors: [],
  scanning: false,
  subnet: 'auto',
  lastScanStartedAt: 0,
  lastResultAt: 0,
  enabled: true,
}

export interface NodesServerState {
  nodes: Json[]
  discovery: Json
  settings: Json
}

/**
 * Stubs the server for the tabs (auth disabled): GET /api/config/nodes, GET /api/discover and
 * GET /api/system/settings answer `state` as it is at the time; `routes` (keyed 'METHOD /path')
 * answer first.
 */
export function nodesServer({
  nodes = [],
  discovery = DISCOVERY_EMPTY,
  settings = SETTINGS_ON,
  routes = {},
}: {
  nodes?: Json[]
  discovery?: Json
  settings?: Json
  routes?: Routes
} = {}) {
  const state: NodesServerState = { nodes: structuredClone(nodes), discovery, settings }
  const all: Routes = {
    'GET /api/config/nodes': () => Response.json(state.nodes),
    'GET /api/discover': () => Response.json(state.discovery),
    'GET /api/system/settings': () => Response.json(state.settings),
    ...routes,
  }
  // authServer's route handlers are synchronous; an async answer goes through `extra`.
  const mock = authServer(
    () => AUTH_DISABLED_STATUS,
    {},
    (url, init) => {
      const path = new URL(url, window.location.href).pathname
      const handler = all[`${init?.method ?? 'GET'} ${path}`]
      if (!handler) return undefined
      const body = init?.body ? (JSON.parse(String(init.body)) as Json) : {}
      return handler(body, init) as Response
    },
  )
  return { mock, state }
}

export type NodesMock = ReturnType<typeof nodesServer>['mock']

const TAB_HEADING = { pve: 'Proxmox VE nodes', pbs: 'Proxmox Backup Server nodes' } as const

/** Opens the app at /settings/{type} and waits for the tab's first list answer. */
export async function openNodesTab(
  type: 'pve' | 'pbs' = 'pve',
  size?: { width: number; height: number },
) {
  const view = renderApp(worker(), `/settings/${type}`, size)
  await expect.element(page.getByRole('heading', { name: TAB_HEADING[type] })).toBeVisible()
  return view
}

/** The parsed JSON body of the `index`th call to `method path`. */
export function bodyOf(mock: NodesMock, method: string, path: string, index = 0): Json {
  const call = callsTo(mock, method, path)[index]
  if (!call) throw new Error(`no call ${index} to ${method} ${path}`)
  return JSON.parse(String(call[1]!.body)) as Json
}

/** The open dialog named `name`. */
export const dialog = (name: string) => page.getByRole('dialog', { name })

/** The toasts shown, as 'type: text' (poll it: `expect.poll(toasts).toContain(...)`). */
export const toasts = () =>
  [...document.querySelectorAll<HTMLElement>('[data-toast]:not([aria-hidden])')].map(
    (item) => `${item.dataset.toast}: ${item.textContent}`,
  )

/** The list item of the node named `name`. */
export const nodeItem = (name: string) => page.getByRole('listitem', { name, exact: true })

/** The status dot of the node named `name`: its tone and classes. */
export function dotOf(name: string): { tone: string; className: string; label: string } {
  const dot = nodeItem(name).element().querySelector<HTMLElement>('[data-tone]')!
  return {
    tone: dot.dataset.tone!,
    className: dot.className,
    label: dot.getAttribute('aria-label')!,
  }
}

/** A promise the test resolves by hand: holds a stubbed answer while a state is checked. */
export function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((done) => {
    resolve = done
  })
  return { promise, resolve }
}

/** Captures downloads made through a Blob link. */
export function captureDownloads() {
  const blobs: Blob[] = []
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob)
    return 'blob:setup-script'
  })
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
  const names: string[] = []
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    names.push(this.download)
  })
  return { blobs, names }
}
