import { Construction } from 'lucide-react'
import { EmptyState } from '../components/EmptyState.tsx'

/** A clearly marked screen that a later slice fills in. */
export function Placeholder({ title, description }: { title: string; description: string }) {
  return (
    <EmptyState
      icon={<Construction className="size-8" aria-hidden />}
      title={`${title}: coming soon`}
      description={description}
    />
  )
}
