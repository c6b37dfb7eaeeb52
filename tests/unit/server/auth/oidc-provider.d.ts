// The few parts of oidc-provider (v9, untyped) the single sign-on tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  export interface AccountClaims {
    sub: string
    [claim: string]: unknown
  }

  export interface Account {
    accountId: string
    claims(use: string, scope: string): Promise<AccountClaims> | AccountClaims
  }

  export interface InteractionDetails {
    uid: string
    params: Record<string, string | undefined>
    prompt: { name: string; details: Record<string, unknown> }
  }

  export interface GrantInstance {
    addOIDCScope(scope: string): void
    save(): Promise<string>
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>
    Grant: new (options: { accountId: string; clientId: string }) => GrantInstance
    on(event: string, listener: (...args: unknown[]) => void): this
  }
}
