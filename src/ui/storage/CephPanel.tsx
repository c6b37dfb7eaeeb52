import type { Colour } from '../../shared/format/thresholds.ts'
import type { CephDetail } from '../../shared/views/storage-types.ts'
import { clockTime } from '../lib/time.ts'
import { BADGE, PILL } from '../components/colours.ts'

const HEALTH_COLOUR: Record<string, Colour> = {
  HEALTH_OK: 'green',
  HEALTH_WARN: 'yellow',
  HEALTH_ERR: 'red',
}

/** Badge colour of a Ceph health value; grey for HEALTH_UNKNOWN or anything else. */
export function cephHealthColour(health: string): Colour {
  return HEALTH_COLOUR[health] ?? 'grey'
}

/** The Ceph detail panel of a Ceph storage row (spec 000 §2.3). */
export function CephPanel({ ceph }: { ceph: CephDetail }) {
  const colour = cephHealthColour(ceph.health)
  return (
    <section
      aria-label="Ceph cluster"
      className="grid gap-3 rounded-md border border-gray-200 bg-gray-50 p-3 text-sm sm:grid-cols-2 lg:grid-cols-4 dark:border-gray-700 dark:bg-gray-900/60"
    >
      <div className="flex flex-col gap-1">
        <h3 className="text-xs font-semibold text-gray-600 uppercase dark:text-gray-400">
          {ceph.name} health
        </h3>
        <span className={`${PILL} w-fit ${BADGE[colour]}`}>{ceph.health}</span>
        {ceph.healthMessage && (
          <p className="text-xs text-gray-600 dark:text-gray-400">{ceph.healthMessage}</p>
        )}
        <p className="text-xs text-gray-600 tabular-nums dark:text-gray-400">
          {ceph.usedText} / {ceph.totalText} used
        </p>
        {ceph.note && (
          <p className="text-xs text-amber-700 italic dark:text-amber-400">{ceph.note}</p>
        )}
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs tabular-nums">
        <dt className="text-gray-500 dark:text-gray-400">Monitors</dt>
        <dd>{ceph.numMons}</dd>
        <dt className="text-gray-500 dark:text-gray-400">Managers</dt>
        <dd>{ceph.numMgrs}</dd>
        <dt className="text-gray-500 dark:text-gray-400">OSDs</dt>
        <dd>
          {ceph.numOsdsUp} up / {ceph.numOsdsIn} in of {ceph.numOsds}
        </dd>
        <dt className="text-gray-500 dark:text-gray-400">PGs</dt>
        <dd>{ceph.numPGs}</dd>
      </dl>
      <div className="flex flex-col gap-1 text-xs">
        <h3 className="font-semibold text-gray-600 uppercase dark:text-gray-400">Pools</h3>
        {ceph.pools.length === 0 ? (
          <p className="text-gray-500 dark:text-gray-400">No pool data available</p>
        ) : (
          <ul className="flex flex-col gap-0.5">
            {ceph.pools.map((pool) => (
              <li key={pool.name} className="tabular-nums">
                <span className="font-medium">{pool.name}</span>{' '}
                <span className="text-gray-500 dark:text-gray-400">
                  {pool.storedText} stored · {pool.availableText} available
                </span>
              </li>
            ))}
            {ceph.poolCount > ceph.pools.length && (
              <li className="text-gray-500 dark:text-gray-400">
                +{ceph.poolCount - ceph.pools.length} more
              </li>
            )}
          </ul>
        )}
      </div>
      <div className="flex flex-col gap-1 text-xs">
        <h3 className="font-semibold text-gray-600 uppercase dark:text-gray-400">Services</h3>
        <ul className="flex flex-col gap-0.5 tabular-nums">
          {ceph.services.map((service) => (
            <li key={service.type} title={service.message || undefined}>
              {service.type} {service.running}/{service.total}
            </li>
          ))}
        </ul>
        <p className="text-gray-500 dark:text-gray-400">
          Last update: {ceph.lastUpdated > 0 ? clockTime(ceph.lastUpdated) : '-'}
        </p>
      </div>
    </section>
  )
}
