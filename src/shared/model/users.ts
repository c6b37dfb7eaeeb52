// Local users on the wire (issue 29 items 2 and 7): GET /api/users → { users: UserView[] }.
import type { Role } from './roles.ts'

/** At most this many users exist. */
export const MAX_USERS = 1000
export const USERNAME_MAX_LENGTH = 64
/** What a username may hold. */
export const USERNAME_PATTERN = /^[A-Za-z0-9._@-]+$/

/** A user as the API shows them: never the password hash. */
export interface UserView {
  username: string
  role: Role
  disabled: boolean
  /** Epoch ms. */
  createdAt: number
  updatedAt: number
}
