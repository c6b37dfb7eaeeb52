// A node summary row as the worker would send it, for page tests that need a summary beside
// their own view. `change` overrides any field.
import type { NodeSummaryRow } from '../../../src/shared/views/node-summary-types.ts'

/** A healthy node (or PBS, by `change.kind`) at 10 % CPU, 40 % memory, 10 % disk. */
export function makeSummaryRow(
  id: string,
  name: string,
  change: Partial<NodeSummaryRow> = {},
): NodeSummaryRow {
  const kind = change.kind ?? 'pve'
  return {
    id,
    kind,
    name,
    href: `https://${name}.example.com:8006`,
    online: true,
    uptimeText: '1d 0h',
    uptimeShort: false,
    cpuPercent: 10,
    cpuText: '10%',
    memoryPercent: 40,
    memoryText: '40%',
    memoryDetail: '',
    diskPercent: 10,
    diskText: '10%',
    diskDetail: '',
    temperature: null,
    temperatureText: '-',
    temperatureColour: null,
    badges: {
      type: kind === 'pve' ? 'PVE' : 'PBS',
      version: '8.3.1',
      cluster: null,
      displayName: null,
    },
    counts: {},
    ...change,
  }
}
