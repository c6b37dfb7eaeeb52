// Guests for a PBS simulator started without a PVE estate, and the namespace each guest's
// backups go to (databases to prod/db, most others to prod or lab, a few nowhere at all).

import type { Rng } from '../prng.ts'
import type { SimPbsGuest } from './model.ts'

// Role stems and the share of containers among them.
const ROLES = [
  { stem: 'web', lxc: 0.5 },
  { stem: 'app', lxc: 0.4 },
  { stem: 'api', lxc: 0.5 },
  { stem: 'db', lxc: 0.2 },
  { stem: 'pg', lxc: 0.3 },
  { stem: 'cache', lxc: 0.7 },
  { stem: 'worker', lxc: 0.4 },
  { stem: 'proxy', lxc: 0.6 },
  { stem: 'dns', lxc: 0.9 },
  { stem: 'mail', lxc: 0.3 },
  { stem: 'git', lxc: 0.3 },
  { stem: 'monitor', lxc: 0.7 },
  { stem: 'files', lxc: 0.4 },
  { stem: 'win-dc', lxc: 0 },
] as const

const DB_NAME = /(^|-)(db|pg|mysql|maria|postgres|mongo|elastic|sql)/

/** Invents `count` guests with sequential VMIDs from 100 and names like 'web-03'. */
export function inventGuests(rng: Rng, count: number): SimPbsGuest[] {
  const counters = new Map<string, number>()
  const guests: SimPbsGuest[] = []
  for (let i = 0; i < count; i++) {
    const role = rng.pick(ROLES)
    const n = (counters.get(role.stem) ?? 0) + 1
    counters.set(role.stem, n)
    guests.push({
      vmid: 100 + i,
      type: rng.chance(role.lxc) ? 'lxc' : 'qemu',
      name: `${role.stem}-${String(n).padStart(2, '0')}`,
    })
  }
  return guests
}

/** The 'main' namespace a guest is backed up to, or undefined for the ~8% in no backup job. */
export function pickNamespace(rng: Rng, guest: SimPbsGuest): string | undefined {
  if (rng.chance(0.08)) return undefined
  if (DB_NAME.test(guest.name) && rng.chance(0.9)) return 'prod/db'
  const r = rng.next()
  return r < 0.6 ? 'prod' : r < 0.85 ? 'lab' : ''
}
