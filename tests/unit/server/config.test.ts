import { describe, expect, it } from 'vitest'
import { readConfig } from '../../../src/server/config.ts'

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
})
