import { useEffect, type ReactNode } from 'react'
import { useSnapshot } from 'valtio'
import { useLocation } from 'wouter'
import { authState } from './auth/auth-store.ts'
import { ErrorBoundary } from './components/ErrorBoundary.tsx'
import { Toasts } from './components/Toasts.tsx'
import { useDemoMode } from './hooks/useServerInfo.ts'
import { AuthDisabledBanner } from './shell/AuthDisabledBanner.tsx'
import { DemoBanner } from './shell/DemoBanner.tsx'
import { Footer } from './shell/Footer.tsx'
import { Header } from './shell/Header.tsx'
import { SecurityBanner } from './shell/SecurityBanner.tsx'
import { TabBar } from './shell/TabBar.tsx'
import { UpdateBanner } from './shell/UpdateBanner.tsx'
import { clearNodeSelection } from './summary/selection.ts'
import { useStartupUpdateCheck } from './updates/useUpdates.ts'
import { PaletteLayer } from './palette/PaletteLayer.tsx'
import { useWallView } from './wall/wall-view.ts'
import { useWallWatch } from './wall/useWallWatch.ts'
import { useSessionEndWatch } from './auth/useSessionEndWatch.ts'
import { NewBuildBanner } from './shell/NewBuildBanner.tsx'
import { useServerChange } from './shell/useServerChange.ts'
import { WallStatus } from './wall/WallStatus.tsx'

/**
 * Header, banners, tab bar, the routed page and the footer, filling the viewport; the toasts and
 * the keyboard dialogs. The wall view (`?kiosk=1`) shows the page alone with a status strip.
 */
export function Shell({ children }: { children: ReactNode }) {
  const demo = useDemoMode()
  useStartupUpdateCheck()
  const authDisabled = useSnapshot(authState).phase === 'disabled'
  // Spec 000 §2.1: changing tab clears the node selection. The tab is the first path segment.
  const [path] = useLocation()
  const tab = path.split('/')[1] ?? ''
  useEffect(() => {
    clearNodeSelection()
  }, [tab])
  const wallView = useWallView()
  const serverChanged = useServerChange()
  useWallWatch(wallView, serverChanged)
  useSessionEndWatch()
  if (wallView) {
    return (
      <div className="wall-view flex h-full min-h-0 flex-col" data-wall-view>
        <main className="relative min-h-0 flex-1 overflow-auto">
          <ErrorBoundary>{children}</ErrorBoundary>
        </main>
        <WallStatus />
        <Toasts />
        <PaletteLayer />
      </div>
    )
  }
  return (
    <div className="flex h-full min-h-0 flex-col">
      <Header />
      <DemoBanner active={demo === true} authDisabled={authDisabled} />
      <AuthDisabledBanner active={authDisabled && demo === false} />
      <SecurityBanner />
      <UpdateBanner />
      <NewBuildBanner active={serverChanged} />
      <TabBar />
      {/* relative: absolutely placed pieces (sr-only labels) scroll and clip with <main>; without
          it they stretch the document and the window itself scrolls, sliding the app away. */}
      <main className="relative min-h-0 flex-1 overflow-auto">
        <ErrorBoundary>{children}</ErrorBoundary>
      </main>
      <Footer />
      <Toasts />
      <PaletteLayer />
    </div>
  )
}
