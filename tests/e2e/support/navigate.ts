// Getting around the app in the e2e tests as a user does: through the navigation, not the URL.
import type { Page } from '@playwright/test'

/** Main → Settings → `tab` (Security, System, ...) by clicking the two navigations. */
export async function openSettingsTab(page: Page, tab: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click()
  await page
    .getByRole('navigation', { name: 'Settings' })
    .getByRole('link', { name: tab, exact: true })
    .click()
}
