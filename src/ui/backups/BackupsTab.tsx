// The Backups tab (spec 000 §2.4, issue 26): a sub-navigation "Backups | Coverage | Jobs" over the
// backup list (/backups, unchanged), the coverage view (/backups/coverage) and the jobs view
// (/backups/jobs). An unknown sub-path goes back to /backups.
import { Redirect } from 'wouter'
import { SubTabs } from '../pages/SubTabs.tsx'
import { BackupsPage } from './BackupsPage.tsx'
import { CoveragePage } from './CoveragePage.tsx'
import { JobsPage } from './JobsPage.tsx'

const NAV = [
  { path: '/backups', label: 'Backups' },
  { path: '/backups/coverage', label: 'Coverage' },
  { path: '/backups/jobs', label: 'Jobs' },
] as const

/** `sub`: the path after /backups/ ('' or undefined for the list). */
export function BackupsTab({ sub }: { sub: string | undefined }) {
  if (sub && sub !== 'coverage' && sub !== 'jobs') return <Redirect to="/backups" replace />
  const active = sub ? `/backups/${sub}` : '/backups'
  return (
    <div className="flex min-h-full flex-col lg:h-full lg:min-h-0">
      <SubTabs label="Backups views" tabs={NAV} active={active} />
      <div className="flex min-h-0 flex-1 flex-col">
        {sub === 'coverage' ? <CoveragePage /> : sub === 'jobs' ? <JobsPage /> : <BackupsPage />}
      </div>
    </div>
  )
}
