// Settings a role may read but not change (issue 29 item 6): every control inside is disabled
// natively (a disabled fieldset), and one short line above says why. The server checks each call
// regardless (route-roles.ts).
import { Lock } from 'lucide-react'
import { useId, type ReactNode } from 'react'
import type { Role } from '../../shared/model/roles.ts'
import { useRole } from './useRole.ts'

/** `children` as they are for `needs` and above; read-only, with the reason, below it. */
export function RoleFieldset({
  needs,
  what,
  children,
}: {
  needs: Role
  /** What the role may not change, as a sentence's subject: "Changing thresholds". */
  what: string
  children: ReactNode
}) {
  const { can } = useRole()
  const id = useId()
  if (can(needs)) return <>{children}</>
  // The fieldset stacks the reason and the children; for an allowed role nothing wraps them.
  return (
    <fieldset
      disabled
      aria-describedby={id}
      className="m-0 flex min-w-0 flex-col gap-4 border-0 p-0"
    >
      <p
        id={id}
        data-testid="role-read-only"
        className="flex items-center gap-1.5 rounded-md border border-gray-200 bg-gray-50 px-3 py-2 text-sm text-gray-700 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-300"
      >
        <Lock className="size-4 shrink-0" aria-hidden />
        Read only: {what} needs the {needs} role.
      </p>
      {children}
    </fieldset>
  )
}
