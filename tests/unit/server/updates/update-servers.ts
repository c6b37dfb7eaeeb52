// The server and release feed an updater test starts, stopped after each test (the apply in
// flight first, so no download outlives its feed).
import { afterEach } from 'vitest'
import {
  startReleaseFeed,
  type FeedOptions,
  type FeedRelease,
  type ReleaseFeed,
} from '../../../fixtures/release-feed.ts'
import { startAuthServer, type AuthTestServer } from '../auth/auth-helpers.ts'

/** Wait for a running apply, then close the server and the feed (either may be null). */
export async function stopUpdateServers(
  server: AuthTestServer | null,
  feed: ReleaseFeed | null,
): Promise<void> {
  await server?.ctx.app.updater.idle()
  await server?.close()
  await feed?.close()
}

/** What a test started, stopped and forgotten after each test of the calling file. */
export function useUpdateServers(): { server: AuthTestServer | null; feed: ReleaseFeed | null } {
  const held = { server: null as AuthTestServer | null, feed: null as ReleaseFeed | null }
  afterEach(() =>
    stopUpdateServers(held.server, held.feed).finally(() =>
      Object.assign(held, { server: null, feed: null }),
    ),
  )
  return held
}

type Held = ReturnType<typeof useUpdateServers>

/** A feed of `releases` and a server (0.1.0, manual install, no login) reading it, kept in `held`. */
export async function startUpdateServers(
  held: Held,
  releases: readonly FeedRelease[],
  options: FeedOptions = {},
): Promise<{ s: AuthTestServer; f: ReleaseFeed }> {
  const f = (held.feed = await startReleaseFeed(releases, options))
  const s = (held.server = await startAuthServer({
    authDisabled: true,
    version: '0.1.0',
    updates: { feedUrl: f.feedUrl, deploymentType: 'manual' },
  }))
  return { s, f }
}
