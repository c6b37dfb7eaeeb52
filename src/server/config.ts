// Server configuration from the environment. One place reads process.env.
import { readEmbeddingConfig, type EmbeddingConfig } from './auth/security-headers.ts'
import os from 'node:os'
import path from 'node:path'
import { readProxyAuthConfig, type ProxyAuthConfig } from './auth/proxy-auth.ts'
import { readPublicUrl, readTrustedProxies } from './auth/proxy-trust.ts'
import { readOidcEnv, type OidcEnvOverrides } from './auth/oidc-settings.ts'
import type { EnvApiToken } from './auth/auth-service.ts'
import { sha256Hex, tokenHint } from './auth/secrets.ts'
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from './log.ts'
import { fileURLToPath } from 'node:url'
import type { DeploymentType } from '../shared/model/updates.ts'
import {
  HISTORY_RETENTION_DEFAULT,
  HISTORY_RETENTION_MAX,
  HISTORY_RETENTION_MIN,
} from '../shared/model/history-retention.ts'
import { detectDeploymentType, systemProbes } from './updates/deployment.ts'

/**
 * This project's releases (GitHub releases API). Contacted only when someone checks for updates
 * or auto-update is enabled, never at startup; tests and e2e servers point UPDATE_FEED_URL at
 * loopback instead.
 */
export const DEFAULT_UPDATE_FEED_URL = 'https://api.github.com/repos/pulse-monitor/pulse/releases'

/** The directory holding package.json. */
const INSTALL_ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface DemoConfig {
  seed: number
  clusters: number
  nodesPerCluster: number
  guestsPerNode: number
  /** First simulator port; clusters use consecutive ports. 0 = ephemeral. */
  basePort: number
  tickMs: number
  /** Simulated Proxmox Backup Servers (DEMO_PBS). */
  pbsInstances: number
  /**
   * The demo's scripted alert conditions (DEMO_ALERT_SCENARIOS, default true). Off, the estate has
   * PVE's usual mix (about a fifth of guests stopped) and random trouble only.
   */
  alertScenarios: boolean
  /**
   * Backups kept per guest by every simulated cluster's nightly job (DEMO_BACKUP_KEEP, 1-30; 0,
   * the default: 7-14 per cluster). 19 gives about 1,000,000 backup records at 100,000 guests.
   */
  backupKeep?: number
}

export const PULSE_ROLES = ['all', 'collector', 'web'] as const
export type PulseRole = (typeof PULSE_ROLES)[number]

/** Several machines (README "Running on several machines"); role 'all' uses none of the rest. */
export interface ClusterConfig {
  /** PULSE_ROLE: all (default, no bus), collector or web. */
  role: PulseRole
  /** NATS_URL: required for collector and web; null for all. */
  natsUrl: string | null
  /** PULSE_INSTANCE_ID: this process's name on the bus (default hostname-pid). */
  instanceId: string
  /** PULSE_COLLECTOR_GROUP: collectors of a group share one lease and one data directory. */
  collectorGroup: string
  /** PULSE_LEASE_TTL_MS: how long a dead collector keeps the lease. */
  leaseTtlMs: number
}

export interface ServerConfig {
  port: number
  host: string
  dataDir: string
  /** Directory of the built SPA. */
  staticDir: string
  pollIntervalMs: number
  /**
   * The poller runs in a thread of its own (collect/poller-thread.ts); PULSE_COLLECTOR_IN_LOOP=true
   * keeps it on the server's loop, as before.
   */
  collectorThread: boolean
  demo: DemoConfig | null
  version: string
  /** DISABLE_AUTH=true: every request is allowed as `anonymous` (shown as disabled). */
  authDisabled: boolean
  /** ALLOWED_ORIGINS (comma-separated): extra origins accepted on /ws besides the same host; when
   * set, the System tab's field is read-only. */
  allowedOrigins: string[]
  /** TRUSTED_PROXIES: IPs/CIDRs whose X-Forwarded-Host counts on /ws (default loopback). */
  trustedProxies: string[]
  /** PULSE_PUBLIC_URL's origin (always accepted on /ws), or null. */
  publicUrl: string | null
  /** Who may frame the app (ALLOW_EMBEDDING, ALLOWED_EMBED_ORIGINS); null: neither is set, the
   * System tab decides. */
  embedding: EmbeddingConfig | null
  /** PROXY_AUTH_*: reverse-proxy authentication, or null when PROXY_AUTH_SECRET is unset. */
  proxyAuth: ProxyAuthConfig | null
  /** OIDC_*: single sign-on fields set by the environment (read-only in the settings). */
  oidcEnv: OidcEnvOverrides
  /** API_TOKEN, hashed: accepted as X-API-Token; alone it puts the instance in token-only mode. */
  apiToken: EnvApiToken | null
  /** PULSE_METRICS_TOKEN, hashed: a read-only bearer token accepted on /metrics only. */
  metricsToken: EnvApiToken | null
  /** LOG_LEVEL (default info) and LOG_FORMAT (null: readable on a terminal, else JSON). */
  log: { level: LogLevel; format: LogFormat | null }
  /** WEBHOOK_ALLOW_LOOPBACK=true: webhooks may target loopback addresses (off: refused). */
  webhookAllowLoopback: boolean
  /** UPDATE_FEED_URL and the detected (or PULSE_DEPLOYMENT_TYPE) installation kind. */
  updates: { feedUrl: string; deploymentType: DeploymentType }
  cluster: ClusterConfig
  /** HISTORY_RETENTION_MINUTES (10 to 360): fixes the recent history's retention; null: unset. */
  historyRetentionMinutes: number | null
}

/** Shortest API_TOKEN accepted: the generated ones have 48 characters. */
export const ENV_TOKEN_MIN_LENGTH = 16

function readApiToken(env: NodeJS.ProcessEnv, name = 'API_TOKEN'): EnvApiToken | null {
  const raw = (env[name] ?? '').trim()
  if (raw === '') return null
  if (raw.length < ENV_TOKEN_MIN_LENGTH || raw.length > 1024) {
    throw new Error(`${name} must have ${ENV_TOKEN_MIN_LENGTH} to 1024 characters`)
  }
  return { hash: sha256Hex(raw), hint: tokenHint(raw) }
}

function readInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number) {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max} (got "${raw}")`)
  }
  return value
}

function readChoice<T extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  choices: readonly T[],
): T | null {
  const raw = (env[name] ?? '').trim().toLowerCase()
  if (raw === '') return null
  if (!(choices as readonly string[]).includes(raw)) {
    throw new Error(`${name} must be one of ${choices.join(', ')} (got "${env[name]}")`)
  }
  return raw as T
}

function readFeedUrl(env: NodeJS.ProcessEnv): string {
  const raw = (env.UPDATE_FEED_URL ?? '').trim()
  if (raw === '') return DEFAULT_UPDATE_FEED_URL
  let url: URL | null = null
  try {
    url = new URL(raw)
  } catch {
    url = null
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`UPDATE_FEED_URL must be an http:// or https:// URL (got "${raw}")`)
  }
  return raw
}

function readBool(env: NodeJS.ProcessEnv, name: string): boolean {
  return /^(1|true|yes|on)$/i.test(env[name] ?? '')
}

function readRetention(env: NodeJS.ProcessEnv): number | null {
  const name = 'HISTORY_RETENTION_MINUTES'
  if ((env[name] ?? '').trim() === '') return null
  return readInt(env, name, HISTORY_RETENTION_DEFAULT, HISTORY_RETENTION_MIN, HISTORY_RETENTION_MAX)
}

/** A lease key and NATS connection name must stay within these characters. */
const BUS_NAME = /^[A-Za-z0-9_-]{1,64}$/

function readNatsUrl(env: NodeJS.ProcessEnv, role: PulseRole): string | null {
  if (role === 'all') return null
  const raw = (env.NATS_URL ?? '').trim()
  if (raw === '') throw new Error(`NATS_URL is required when PULSE_ROLE is ${role}`)
  let url: URL | null = null
  try {
    url = new URL(raw)
  } catch {
    url = null
  }
  if (!url || !['nats:', 'tls:', 'ws:', 'wss:'].includes(url.protocol) || !url.hostname) {
    throw new Error(`NATS_URL must be a nats://host:port URL (got "${raw}")`)
  }
  return raw
}

function readBusName(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = (env[name] ?? '').trim()
  if (raw === '') return fallback
  if (!BUS_NAME.test(raw)) {
    throw new Error(`${name} must be 1 to 64 letters, digits, - or _ (got "${raw}")`)
  }
  return raw
}

function readCluster(env: NodeJS.ProcessEnv): ClusterConfig {
  const role = readChoice(env, 'PULSE_ROLE', PULSE_ROLES) ?? 'all'
  const host =
    os
      .hostname()
      .replace(/[^A-Za-z0-9_-]/g, '-')
      .slice(0, 40) || 'pulse'
  return {
    role,
    natsUrl: readNatsUrl(env, role),
    instanceId: readBusName(env, 'PULSE_INSTANCE_ID', `${host}-${process.pid}`),
    collectorGroup: readBusName(env, 'PULSE_COLLECTOR_GROUP', 'default'),
    leaseTtlMs: readInt(env, 'PULSE_LEASE_TTL_MS', 10_000, 1000, 600_000),
  }
}

/** What the server runs with when PORT, HOST, PULSE_POLL_INTERVAL_MS and LOG_LEVEL are unset. */
export const CONFIG_DEFAULTS = {
  port: 7655,
  // Loopback by default until authentication exists; set HOST=0.0.0.0 to serve the network.
  host: '127.0.0.1',
  pollIntervalMs: 10_000,
  logLevel: 'info',
} as const satisfies { port: number; host: string; pollIntervalMs: number; logLevel: LogLevel }

/** Read the configuration; throws with a message naming the variable on bad input. */
export function readConfig(env: NodeJS.ProcessEnv, cwd: string, version: string): ServerConfig {
  const demo = readBool(env, 'DEMO_MODE') || readBool(env, 'PULSE_DEMO')
  return {
    port: readInt(env, 'PORT', CONFIG_DEFAULTS.port, 0, 65535),
    host: env.HOST || CONFIG_DEFAULTS.host,
    dataDir: path.resolve(cwd, env.PULSE_DATA_DIR || './data'),
    staticDir: path.resolve(cwd, env.PULSE_STATIC_DIR || './dist'),
    pollIntervalMs: readInt(
      env,
      'PULSE_POLL_INTERVAL_MS',
      CONFIG_DEFAULTS.pollIntervalMs,
      1000,
      3_600_000,
    ),
    collectorThread: !readBool(env, 'PULSE_COLLECTOR_IN_LOOP'),
    version,
    authDisabled: readBool(env, 'DISABLE_AUTH'),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter((origin) => origin !== ''),
    trustedProxies: readTrustedProxies(env.TRUSTED_PROXIES),
    publicUrl: readPublicUrl(env.PULSE_PUBLIC_URL),
    embedding:
      (env.ALLOW_EMBEDDING ?? '').trim() || (env.ALLOWED_EMBED_ORIGINS ?? '').trim()
        ? readEmbeddingConfig(env)
        : null,
    proxyAuth: readProxyAuthConfig(env),
    oidcEnv: readOidcEnv(env),
    apiToken: readApiToken(env),
    metricsToken: readApiToken(env, 'PULSE_METRICS_TOKEN'),
    log: {
      level: readChoice(env, 'LOG_LEVEL', LOG_LEVELS) ?? CONFIG_DEFAULTS.logLevel,
      format: readChoice(env, 'LOG_FORMAT', LOG_FORMATS),
    },
    webhookAllowLoopback: readBool(env, 'WEBHOOK_ALLOW_LOOPBACK'),
    updates: {
      feedUrl: readFeedUrl(env),
      deploymentType: detectDeploymentType(systemProbes(env, INSTALL_ROOT)),
    },
    cluster: readCluster(env),
    historyRetentionMinutes: readRetention(env),
    demo: demo
      ? {
          seed: readInt(env, 'DEMO_SEED', 1, 0, 2 ** 31),
          clusters: readInt(env, 'DEMO_CLUSTERS', 3, 1, 100),
          nodesPerCluster: readInt(env, 'DEMO_NODES_PER_CLUSTER', 3, 1, 100),
          guestsPerNode: readInt(env, 'DEMO_GUESTS_PER_NODE', 225, 0, 10_000),
          basePort: readInt(env, 'DEMO_SIM_PORT', 0, 0, 65535),
          tickMs: readInt(env, 'DEMO_TICK_MS', 10_000, 0, 3_600_000),
          pbsInstances: readInt(env, 'DEMO_PBS', 1, 0, 10),
          alertScenarios:
            env.DEMO_ALERT_SCENARIOS === undefined || readBool(env, 'DEMO_ALERT_SCENARIOS'),
          backupKeep: readInt(env, 'DEMO_BACKUP_KEEP', 0, 0, 30),
        }
      : null,
  }
}
