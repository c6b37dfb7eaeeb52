// The API tokens card's calls (issue 29 item 4): list, create (the value answered once), revoke.
// Each throws an Error whose message is the server's text (a 400 names the field).
import type { ApiTokenInfo, CreatedApiToken } from '../../../shared/model/api-tokens.ts'
import type { Role } from '../../../shared/model/roles.ts'
import { apiJson } from '../../api/http.ts'

/** The server's text (HttpError's message), else `fallback`. */
function failure(error: unknown, fallback: string): Error {
  return new Error(error instanceof Error && error.message ? error.message : fallback)
}

/** GET /api/security/tokens, oldest first. */
export async function listTokens(): Promise<ApiTokenInfo[]> {
  try {
    const answer = await apiJson<{ tokens?: unknown }>('/api/security/tokens')
    return Array.isArray(answer?.tokens) ? (answer.tokens as ApiTokenInfo[]) : []
  } catch (error) {
    throw failure(error, 'Failed to load the API tokens')
  }
}

/** POST /api/security/tokens → the new token with its value, shown once. */
export async function createToken(name: string, role: Role): Promise<CreatedApiToken> {
  let answer: CreatedApiToken | null
  try {
    answer = await apiJson<CreatedApiToken>('/api/security/tokens', {
      method: 'POST',
      body: { name, role },
    })
  } catch (error) {
    throw failure(error, 'Failed to create the token')
  }
  if (typeof answer?.token !== 'string' || !answer.token) {
    throw new Error('The server did not return a token')
  }
  return answer
}

/** DELETE /api/security/tokens/{id}: the token stops working at once. */
export async function revokeToken(id: string): Promise<void> {
  try {
    await apiJson(`/api/security/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' })
  } catch (error) {
    throw failure(error, 'Failed to revoke the token')
  }
}
