import type { DiskRow } from '../../shared/views/storage-types.ts'
import { BADGE, PILL, TEXT } from '../components/colours.ts'
import { UsageBar } from '../components/UsageBar.tsx'

const TH =
  'h-8 border-b border-gray-200 bg-gray-50 px-2 text-left text-xs font-semibold whitespace-nowrap text-gray-600 uppercase dark:border-gray-700 dark:bg-gray-900 dark:text-gray-400'
const TD = 'px-2 py-1.5 align-middle'
const NUM = `${TD} text-right tabular-nums whitespace-nowrap`
const COLUMNS = ['Node', 'Device', 'Model', 'Type', 'FS', 'Health', 'SSD Life', 'Temp', 'Size']

/** The Physical Disks table (spec 000 §2.3): health badge, SSD life bar, temperature colour. */
export function DiskTable({ disks }: { disks: readonly DiskRow[] }) {
  return (
    <div className="min-h-60 overflow-auto rounded-md border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900">
      <table aria-label="Physical disks" className="w-full min-w-[860px] border-collapse text-sm">
        <thead className="sticky top-0 z-10">
          <tr>
            {COLUMNS.map((label) => (
              <th
                key={label}
                scope="col"
                className={`${TH} ${label === 'Temp' || label === 'Size' ? 'text-right' : ''}`}
              >
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {disks.map((disk) => (
            <tr
              key={disk.key}
              data-kind="disk"
              className="border-b border-gray-100 dark:border-gray-800"
            >
              <td className={`${TD} whitespace-nowrap`}>{disk.node}</td>
              <td className={`${TD} font-mono text-xs whitespace-nowrap`}>{disk.devPath}</td>
              <td className={TD}>
                <div>{disk.model || '-'}</div>
                {disk.serial && (
                  <div className="text-xs text-gray-500 dark:text-gray-400">{disk.serial}</div>
                )}
              </td>
              <td className={`${TD} whitespace-nowrap`}>{disk.typeLabel}</td>
              <td className={`${TD} text-xs`}>{disk.fs}</td>
              <td className={TD}>
                <span
                  className={`${PILL} ${BADGE[disk.healthColour]}`}
                  data-health={disk.healthLabel}
                >
                  {disk.healthLabel}
                </span>
              </td>
              <td className={`${TD} w-32`}>
                {disk.lifePercent !== null && disk.lifeColour ? (
                  <UsageBar
                    label="SSD life"
                    percent={disk.lifePercent}
                    colour={disk.lifeColour}
                    text={`${disk.lifePercent}%`}
                  />
                ) : (
                  <span className="text-gray-400">-</span>
                )}
              </td>
              <td
                className={`${NUM} ${disk.temperatureColour ? TEXT[disk.temperatureColour] : ''}`}
              >
                {disk.temperatureText}
              </td>
              <td className={NUM}>{disk.sizeText}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
