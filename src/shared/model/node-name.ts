// What a configured node's name may contain, and which guest ids the metadata routes accept.
// Spec 001 is silent on both; the rules below are ours (issue 12 item 3). A node name is the
// `instance` part of guest ids (guest-key.ts), so every accepted name must give an accepted id.

/** Longest node name, in code points. */
export const NODE_NAME_MAX = 100
/** Longest guest id: a full-length name, a PVE node name (DNS label, 63) and a vmid, with room. */
export const GUEST_ID_MAX = 300

// Visible characters and the plain space only. This leaves out controls (Cc: NUL, CR, LF, tab),
// format characters (Cf: bidi overrides and isolates, zero-width characters), lone surrogates
// (Cs), private-use and unassigned code points, and the other separators (NBSP, U+2028/2029),
// all of which make a name that looks like another one or breaks a log line. '/' is left out too:
// guest ids travel in the metadata route's path, where a slash is a separator.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]+$/u

/** True for a non-empty string of letters, marks, digits, punctuation, symbols and spaces, no '/'. */
export function isPrintableText(text: string): boolean {
  return PRINTABLE.test(text) && !text.includes('/')
}

/** Why `name` (already trimmed) is not an acceptable node name, or undefined when it is. */
export function nodeNameProblem(name: string): string | undefined {
  if (name === '') return 'must not be empty'
  if ([...name].length > NODE_NAME_MAX) return `must be at most ${NODE_NAME_MAX} characters`
  if (!isPrintableText(name)) {
    return 'may contain only letters, digits, spaces, punctuation and symbols other than "/" (no control or invisible characters)'
  }
  return undefined
}

/** True for a guest id the metadata routes accept; every id of an accepted node name is one. */
export function isSafeGuestId(id: string): boolean {
  return [...id].length <= GUEST_ID_MAX && isPrintableText(id)
}
