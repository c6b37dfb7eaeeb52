import type { SetupCredentials } from './auth-store.ts'

/** File name of the saved credentials. */
export const CREDENTIALS_FILE = 'pulse-credentials.txt'

/** The text file of the quick setup's "Download credentials". */
export function credentialsText(
  credentials: SetupCredentials,
  origin: string,
  now = new Date(),
): string {
  return [
    'Pulse credentials',
    `Created: ${now.toISOString()}`,
    `Address: ${origin}`,
    '',
    `Username: ${credentials.username}`,
    `Password: ${credentials.password}`,
    `API token: ${credentials.apiToken}`,
    '',
    'Send the API token in the X-API-Token header for scripts and integrations.',
    'Keep this file somewhere safe: the password and token are not shown again.',
    '',
  ].join('\n')
}

/** Saves `text` as a file (of MIME `type`) through a temporary Blob link. */
export function downloadText(name: string, text: string, type = 'text/plain;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked on the next tick: some browsers read the URL only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
