import { useState } from 'react'
import { afterEach, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { ErrorBoundary } from '../../../src/ui/components/ErrorBoundary.tsx'
import { cleanup, render } from './render.tsx'

afterEach(cleanup)

let broken = true

function Fragile() {
  const [n] = useState(1)
  if (broken) throw new Error('widget exploded')
  return <p>Recovered {n}</p>
}

test('a render error shows the generic error screen, details on demand, and Try Again recovers', async () => {
  broken = true
  render(
    <ErrorBoundary>
      <Fragile />
    </ErrorBoundary>,
  )
  await expect.element(page.getByText('Something went wrong')).toBeVisible()
  await expect.element(page.getByText('An unexpected error occurred')).toBeVisible()
  await expect.element(page.getByText('widget exploded', { exact: true })).toBeVisible()
  await expect.element(page.getByRole('button', { name: 'Reload Page' })).toBeVisible()
  await page.getByRole('button', { name: 'Show error details' }).click()
  await expect.element(page.getByRole('button', { name: 'Hide error details' })).toBeVisible()
  expect(document.querySelector('pre')?.textContent).toContain('widget exploded')
  broken = false
  await page.getByRole('button', { name: 'Try Again' }).click()
  await expect.element(page.getByText('Recovered 1')).toBeVisible()
})
