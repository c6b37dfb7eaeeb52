import { Link } from 'wouter'
import { EmptyState } from '../components/EmptyState.tsx'
import { BUTTON } from '../components/button-classes.ts'

/** Unknown top-level paths. */
export function NotFoundPage() {
  return (
    <EmptyState
      title="Page not found"
      description="There is nothing at this address."
      actions={
        <Link href="/" className={BUTTON.primary}>
          Go to dashboard
        </Link>
      }
    />
  )
}
