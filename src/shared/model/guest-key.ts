/** Guest identity key (spec 000 §3): id if present, else instance-node-vmid, or node-vmid when instance equals node. */
export function guestKey(guest: {
  id?: string
  instance?: string
  node: string
  vmid: number | string
}): string {
  if (guest.id) return guest.id
  if (!guest.instance || guest.instance === guest.node) return `${guest.node}-${guest.vmid}`
  return `${guest.instance}-${guest.node}-${guest.vmid}`
}

/** Tags arrive as an array or a ',' / ';' separated string; always an array of trimmed non-empty strings. */
export function normalizeTags(tags: unknown): string[] {
  if (tags == null) return []
  const parts: unknown[] =
    typeof tags === 'string' ? tags.split(/[,;]/) : Array.isArray(tags) ? tags : []
  const out: string[] = []
  for (const part of parts) {
    if (typeof part !== 'string') continue
    const trimmed = part.trim()
    if (trimmed) out.push(trimmed)
  }
  return out
}
