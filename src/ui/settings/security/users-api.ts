// The users card's calls (issue 29 item 2): list, add, change (role, disabled, password), delete.
// Each throws an Error whose message is the server's text (a 400 names the field).
import type { Role } from '../../../shared/model/roles.ts'
import type { UserView } from '../../../shared/model/users.ts'
import { apiJson } from '../../api/http.ts'

/** The server's text (HttpError's message), else `fallback`. */
function failure(error: unknown, fallback: string): Error {
  return new Error(error instanceof Error && error.message ? error.message : fallback)
}

const path = (username: string) => `/api/users/${encodeURIComponent(username)}`

/** GET /api/users, by name. */
export async function listUsers(): Promise<UserView[]> {
  try {
    const answer = await apiJson<{ users?: unknown }>('/api/users')
    return Array.isArray(answer?.users) ? (answer.users as UserView[]) : []
  } catch (error) {
    throw failure(error, 'Failed to load the users')
  }
}

/** POST /api/users. */
export async function addUser(input: {
  username: string
  password: string
  role: Role
}): Promise<void> {
  try {
    await apiJson('/api/users', { method: 'POST', body: input })
  } catch (error) {
    throw failure(error, 'Failed to add the user')
  }
}

/** PUT /api/users/{username}: a new role, disabled or enabled, or a reset password. */
export async function changeUser(
  username: string,
  changes: { role?: Role; disabled?: boolean; password?: string },
): Promise<void> {
  try {
    await apiJson(path(username), { method: 'PUT', body: changes })
  } catch (error) {
    throw failure(error, 'Failed to change the user')
  }
}

/** DELETE /api/users/{username}: their sessions end at once. */
export async function deleteUser(username: string): Promise<void> {
  try {
    await apiJson(path(username), { method: 'DELETE' })
  } catch (error) {
    throw failure(error, 'Failed to delete the user')
  }
}
