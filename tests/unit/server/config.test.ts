import { describe, expect, it } from 'vitest'
import { DEFAULT_UPDATE_FEED_URL, readConfig } from '../../../src/server/config.ts'

describe('readConfig', () => {
  it('uses the documented defaults', () => {
    const config = readConfig({}, '/srv/pulse', '1.0.0')
    expect(config).toMatchObject({
      port: 7655,
      host: '127.0.0.1',
      dataDir: '/srv/pulse/data',
      demo: null,
    })
  })

  it('reads PORT, PULSE_DATA_DIR and the demo size options', () => {
    const config = readConfig(
      {
        PORT: '8080',
        PULSE_DATA_DIR: '/var/lib/pulse',
        DEMO_MODE: 'true',
        DEMO_CLUSTERS: '5',
        DEMO_GUESTS_PER_NODE: '10',
      },
      '/srv',
      '1.0.0',
    )
    expect(config.port).toBe(8080)
    expect(config.dataDir).toBe('/var/lib/pulse')
    expect(config.demo).toMatchObject({ clusters: 5, guestsPerNode: 10, nodesPerCluster: 3 })
  })

  it('names the variable when a value is invalid', () => {
    expect(() => readConfig({ PORT: 'eighty' }, '/', '1')).toThrow(/PORT/)
    expect(() => readConfig({ DEMO_MODE: '1', DEMO_CLUSTERS: '0' }, '/', '1')).toThrow(
      /DEMO_CLUSTERS/,
    )
  })

  it('reads the update feed and the deployment type, refusing bad values by name', () => {
    const defaults = readConfig({ PULSE_DEPLOYMENT_TYPE: 'systemd' }, '/srv', '1.0.0')
    expect(defaults.updates).toEqual({
      feedUrl: DEFAULT_UPDATE_FEED_URL,
      deploymentType: 'systemd',
    })
    const local = readConfig(
      { UPDATE_FEED_URL: 'http://127.0.0.1:8999/releases', PULSE_DEPLOYMENT_TYPE: 'Docker' },
      '/srv',
      '1.0.0',
    )
    expect(local.updates).toEqual({
      feedUrl: 'http://127.0.0.1:8999/releases',
      deploymentType: 'docker',
    })
    expect(() => readConfig({ UPDATE_FEED_URL: 'ftp://x/releases' }, '/srv', '1.0.0')).toThrow(
      /UPDATE_FEED_URL must be an http/,
    )
    expect(() => readConfig({ PULSE_DEPLOYMENT_TYPE: 'k8s' }, '/srv', '1.0.0')).toThrow(
      /PULSE_DEPLOYMENT_TYPE must be one of/,
    )
  })

  describe('several machines', () => {
    it('defaults to the single process, with no bus even when NATS_URL is set', () => {
      const config = readConfig({ NATS_URL: 'not a url' }, '/srv', '1.0.0')
      expect(config.cluster).toMatchObject({
        role: 'all',
        natsUrl: null,
        collectorGroup: 'default',
        leaseTtlMs: 10_000,
      })
      expect(config.cluster.instanceId).toMatch(new RegExp(`-${process.pid}$`))
    })

    it('reads the collector and web settings', () => {
      const env = {
        PULSE_ROLE: 'Collector',
        NATS_URL: 'nats://127.0.0.1:4222',
        PULSE_INSTANCE_ID: 'c-1',
        PULSE_COLLECTOR_GROUP: 'east_1',
        PULSE_LEASE_TTL_MS: '3000',
      }
      expect(readConfig(env, '/srv', '1').cluster).toEqual({
        role: 'collector',
        natsUrl: 'nats://127.0.0.1:4222',
        instanceId: 'c-1',
        collectorGroup: 'east_1',
        leaseTtlMs: 3000,
      })
      const web = readConfig({ PULSE_ROLE: 'web', NATS_URL: 'nats://127.0.0.1:4222' }, '/', '1')
      expect(web.cluster.role).toBe('web')
    })

    it('names the variable when a value is invalid', () => {
      expect(() => readConfig({ PULSE_ROLE: 'leader' }, '/', '1')).toThrow(/PULSE_ROLE/)
      expect(() => readConfig({ PULSE_ROLE: 'web' }, '/', '1')).toThrow(/NATS_URL is required/)
      expect(() => readConfig({ PULSE_ROLE: 'collector', NATS_URL: 'http://x' }, '/', '1')).toThrow(
        /NATS_URL must be/,
      )
      const bus = { PULSE_ROLE: 'collector', NATS_URL: 'nats://127.0.0.1:4222' }
      expect(() => readConfig({ ...bus, PULSE_COLLECTOR_GROUP: 'a b' }, '/', '1')).toThrow(
        /PULSE_COLLECTOR_GROUP/,
      )
      expect(() => readConfig({ ...bus, PULSE_INSTANCE_ID: 'x.y' }, '/', '1')).toThrow(
        /PULSE_INSTANCE_ID/,
      )
      expect(() => readConfig({ ...bus, PULSE_LEASE_TTL_MS: '10' }, '/', '1')).toThrow(
        /PULSE_LEASE_TTL_MS/,
      )
    })
  })
})
