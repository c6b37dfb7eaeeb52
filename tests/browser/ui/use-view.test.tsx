// useView over the fake worker of fake-worker.ts (the real worker is tested in tests/browser/worker):
// one hook for every kind, a kind change is a new subscription, unmounting unsubscribes.
import { useState } from 'react'
import { afterEach, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { DEFAULT_GUEST_VIEW_REQUEST } from '../../../src/shared/views/guest-view-types.ts'
import type { StorageViewRequest } from '../../../src/shared/views/storage-types.ts'
import { computeStorageView } from '../../../src/shared/views/storage-view.ts'
import { useView } from '../../../src/ui/hooks/useView.ts'
import { WorkerContext } from '../../../src/ui/worker-context.ts'
import { FakeWorker, viewModel } from './fake-worker.ts'
import { cleanup, render } from './render.tsx'

const STORAGE: StorageViewRequest = {
  kind: 'storage',
  viewMode: 'node',
  search: '',
  diskSearch: '',
  sort: { key: 'name', direction: 'asc' },
  selectedNode: null,
}
const EMPTY = { nodes: [], storage: [], cephClusters: [], physicalDisks: [] }

function Probe() {
  const [kind, setKind] = useState<'guests' | 'storage'>('guests')
  const model = useView(kind === 'guests' ? DEFAULT_GUEST_VIEW_REQUEST : STORAGE)
  return (
    <>
      <button onClick={() => setKind('storage')}>storage</button>
      <output>{model ? `${model.kind} v${model.version}` : 'none'}</output>
    </>
  )
}

afterEach(cleanup)

test('a request of another kind is a new subscription; unmounting closes it', async () => {
  const api = new FakeWorker()
  api.push(viewModel([], { version: 3 }))
  api.storage = { ...computeStorageView(EMPTY, STORAGE), version: 7 }
  render(
    <WorkerContext.Provider value={api}>
      <Probe />
    </WorkerContext.Provider>,
  )
  await expect.element(page.getByText('guests v3')).toBeVisible()
  ;(page.getByRole('button', { name: 'storage' }).element() as HTMLButtonElement).click()
  await expect.element(page.getByText('storage v7')).toBeVisible()
  expect([api.openViews, api.openStorageViews]).toEqual([0, 1])
  expect(api.unsubscribed).toHaveLength(1)
  // Subscribed, not sent as an update of the guest subscription.
  expect([api.requests.length, api.storageRequests.length]).toEqual([1, 1])
  cleanup()
  expect(api.openStorageViews).toBe(0)
  expect(api.unsubscribed).toHaveLength(2)
})
