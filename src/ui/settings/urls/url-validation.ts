// Spec 001 §5 Guest custom URL: the texts shown under the field as the user types.

export const URL_INCOMPLETE =
  'URL appears incomplete - please enter a complete domain or IP address'
export const URL_SCHEME = 'URL must start with http:// or https://'
export const URL_INVALID = 'Invalid URL format'
export const URL_NO_HOST = 'URL must include a valid hostname or IP address'
export const URL_HOST_INCOMPLETE = 'Hostname appears incomplete'

/** The problem with `text` as a guest's custom URL, or null when it is fine (empty included). */
export function validateGuestUrl(text: string): string | null {
  const url = text.trim()
  if (!url) return null
  if (url.endsWith('.') && !url.includes('..')) return URL_INCOMPLETE
  const lower = url.toLowerCase()
  if (!lower.startsWith('http://') && !lower.startsWith('https://')) return URL_SCHEME
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return URL_INVALID
  }
  // The parser turns 'http:///x' into host 'x': the host must be there as typed.
  if (!parsed.hostname || !typedHost(url)) return URL_NO_HOST
  if (parsed.hostname.endsWith('.')) return URL_HOST_INCOMPLETE
  return null
}

/** The host as typed: between '//' and the path, without user info and port. */
function typedHost(url: string): string {
  const authority = url.slice(url.indexOf('//') + 2).split(/[/?#\\]/, 1)[0] ?? ''
  const host = authority.slice(authority.lastIndexOf('@') + 1)
  return host.startsWith('[') ? host : host.replace(/:\d*$/, '')
}
