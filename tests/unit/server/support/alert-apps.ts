// The real app of the alert and notification tests, on a temporary data directory (a real SQLite
// file), on the test's clock, with every alert delay at 0 so an alert fires on its first poll:
// - startAlertApp: the alert routes and service (http/alerts, http/alert-notes, alerts/service);
// - startNotifyApp: besides, one webhook destination 'a' at a loopback receiver on 127.0.0.1,
//   sent through the test channel (notify/notify-fixture.ts), each alert on its own at once (no
//   grouping window); its clock is a fresh one (createClock).
// A test keeps `app` (and `receiver`, `clock`) from the env in its beforeEach and calls close() in
// its afterEach; restart() closes the app and builds another on the same data directory.
import type { App } from '../../../../src/server/app.ts'
import { buildAppOn, createClock, useNoDelays } from '../alerts/alert-fixture.ts'
import { createReceiver, testChannel, webhookTo } from '../notify/notify-fixture.ts'
import { makeTempDir } from '../temp-dir.ts'

export type TestClock = ReturnType<typeof createClock>

export interface AlertAppEnv {
  /** The current app: restart() replaces it. */
  app: App
  dataDir: string
  /** Close the current app, then build another on the same data directory (delays as saved). */
  restart(): Promise<App>
  /** Close the current app (and the receiver, if any), then remove the data directory. */
  close(): Promise<void>
}

export interface NotifyAppEnv extends AlertAppEnv {
  receiver: ReturnType<typeof createReceiver>
  clock: TestClock
}

async function start<T extends object>(
  build: (dataDir: string) => Promise<App>,
  temp: { dir: string; cleanup: () => void },
  noDelays: Parameters<typeof useNoDelays>[1],
  extra: T,
  closeExtra: () => Promise<void> = async () => {},
): Promise<AlertAppEnv & T> {
  const app = await build(temp.dir)
  await useNoDelays(app, noDelays)
  const env: AlertAppEnv & T = {
    ...extra,
    app,
    dataDir: temp.dir,
    async restart() {
      await env.app.close()
      env.app = await build(temp.dir)
      return env.app
    },
    async close() {
      await env.app.close()
      await closeExtra()
      temp.cleanup()
    },
  }
  return env
}

/** An app on a fresh data directory for the alert tests; `clock` is the test's. */
export function startAlertApp(clock: TestClock): Promise<AlertAppEnv> {
  return start((dir) => buildAppOn(dir, clock.now), makeTempDir(), {}, {})
}

/** An app whose one notification destination is a loopback webhook receiver. */
export async function startNotifyApp(): Promise<NotifyAppEnv> {
  const temp = makeTempDir()
  const receiver = createReceiver()
  const url = await receiver.listen()
  const clock = createClock()
  const notify = {
    destinations: () => [webhookTo('a', url)],
    channels: { webhook: testChannel, email: testChannel },
  }
  return start(
    (dir) => buildAppOn(dir, clock.now, { notify }),
    temp,
    { groupNotifications: false },
    { receiver, clock },
    () => receiver.close(),
  )
}
