import type { ReactNode } from 'react'
import { ErrorBoundary } from './components/ErrorBoundary.tsx'
import { useDemoMode } from './hooks/useServerInfo.ts'
import { DemoBanner } from './shell/DemoBanner.tsx'
import { Footer } from './shell/Footer.tsx'
import { Header } from './shell/Header.tsx'
import { TabBar } from './shell/TabBar.tsx'

/** Header, banners, tab bar, the routed page and the footer, filling the viewport. */
export function Shell({ children }: { children: ReactNode }) {
  const demo = useDemoMode()
  return (
    <div className="flex h-full min-h-0 flex-col">
      <Header />
      <DemoBanner active={demo} />
      <TabBar />
      <main className="min-h-0 flex-1 overflow-auto">
        <ErrorBoundary>{children}</ErrorBoundary>
      </main>
      <Footer />
    </div>
  )
}
