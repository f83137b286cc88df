/**
 * The agent's chat client (`/agent`, loaded lazily with the desk): the connect data of a login and
 * the reconnect rule for refused credentials. Kept out of the app runtime, so that a visitor's page
 * carries none of it.
 * @module
 */
import { memoryStorage, type ImClient, type ReconnectContext } from '@kefu-im/sdk';
import { agentConnectData } from '@kefu-im/sdk/agent';
import { CloseCode } from '@kefu-im/sdk/codes';
import type { AppRuntime } from '../runtime/runtime.js';

/**
 * An agent's 4001: the first one may be an expired key session (the SDK exchanges keys again and
 * retries at once, for every client); a second in a row, with fresh keys, is refused credentials (a
 * wrong password, an expired or revoked session token, a throttled account) and ends the client.
 * Any other close takes the normal, never-ending backoff: a server away for minutes is waited for.
 */
export function agentRefusals(ctx: ReconnectContext): number | null | undefined {
  if (ctx.closeCode !== CloseCode.Unauthorized) return undefined;
  return ctx.attempt >= 2 ? null : 0;
}

/**
 * Creates an agent's client: connect data `{ role: 'agent', account, password }` at a login, or
 * `{ role: 'agent', account, token }` with the session token kept from an earlier login (the
 * password is never stored; the SDK's agent desk swaps it for the token at the welcome). Storage
 * is memory only: nothing of the visitor's is shared.
 * @param runtime - the app runtime (server configuration, language, fatal-close listeners)
 * @param account - the agent's account
 * @param credential - the password of a login, or the kept session token
 * @param language - the desk's language (default: the app's current one); the client starts in it,
 *   so that its own start-up cannot switch the desk back to the language it was created in
 */
export function createAgentClient(runtime: AppRuntime, account: string, credential: { password: string } | { token: string }, language?: string): ImClient {
  return runtime.create({ storage: memoryStorage(), connectData: agentConnectData(account, credential), ...(language ? { language } : {}) }, [CloseCode.Banned], agentRefusals);
}
