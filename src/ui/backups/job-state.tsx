// A job run's result as a badge, shared by the coverage and jobs views.
import type { JobRunState } from '../../shared/model/backup-health.ts'
import type { Colour } from '../../shared/format/thresholds.ts'
import { BADGE, PILL } from '../components/colours.ts'

const RUN_COLOURS: Record<JobRunState, Colour> = {
  ok: 'green',
  warning: 'yellow',
  failed: 'red',
  running: 'grey',
  unknown: 'grey',
}
const RUN_LABELS: Record<JobRunState, string> = {
  ok: 'OK',
  warning: 'Warning',
  failed: 'Failed',
  running: 'Running',
  unknown: 'Unknown',
}

/** The badge of a run state ('OK', 'Failed', …). */
export function RunBadge({ state }: { state: JobRunState }) {
  return <span className={`${PILL} ${BADGE[RUN_COLOURS[state]]}`}>{RUN_LABELS[state]}</span>
}
