/**
 * The agent's kept login: after a password login the server's welcome carries a session token
 * (docs/protocol.md §5), which is kept in the desk's storage instead of the password, so that a
 * reload logs in again without asking. Only the account and the token are stored, never the
 * password.
 * @module
 */
import type { StorageLike } from '../options.js';
import type { ChatMessage } from '../messages/types.js';
import { MessageType } from '../messages/types.js';

/** The storage key of the kept login. */
export const AGENT_SESSION_KEY = 'kefu.agentSession';

/** A kept agent login. */
export interface AgentLogin {
  /** The agent's account. */
  account: string;
  /** The session token the server gave (not the password). */
  token: string;
}

/**
 * The kept login in `storage`, or null when there is none (or it is unreadable).
 * @param storage - the desk's storage (e.g. `localStorage`)
 */
export function readAgentLogin(storage: StorageLike): AgentLogin | null {
  try {
    const raw = storage.getItem(AGENT_SESSION_KEY);
    if (raw === null) return null;
    const v: unknown = JSON.parse(raw);
    if (typeof v !== 'object' || v === null) return null;
    const { account, token } = v as Partial<Record<keyof AgentLogin, unknown>>;
    return typeof account === 'string' && account !== '' && typeof token === 'string' && token !== '' ? { account, token } : null;
  } catch {
    return null;
  }
}

/** Keeps a login in `storage` (a full or blocked storage keeps nothing, silently). */
export function writeAgentLogin(storage: StorageLike, login: AgentLogin): void {
  try {
    storage.setItem(AGENT_SESSION_KEY, JSON.stringify(login));
  } catch {
    // private mode or a full quota: the desk asks for the password after a reload
  }
}

/** Forgets the kept login. */
export function clearAgentLogin(storage: StorageLike): void {
  try {
    storage.removeItem(AGENT_SESSION_KEY);
  } catch {
    // nothing kept, nothing to forget
  }
}

/**
 * The connect data of an agent (`d` of the connect payload): with the password at a login, with
 * the kept token after a reload.
 */
export function agentConnectData(account: string, credential: { password: string } | { token: string }): Record<string, unknown> {
  return 'password' in credential ? { role: 'agent', account, password: credential.password } : { role: 'agent', account, token: credential.token };
}

/** The session token of an agent's welcome (type 60), if it carries one. */
export function sessionTokenOf(message: ChatMessage): string | undefined {
  if (message.type !== MessageType.Welcome || typeof message.dataContent !== 'string') return undefined;
  try {
    const v: unknown = JSON.parse(message.dataContent);
    const token = typeof v === 'object' && v !== null ? (v as { sessionToken?: unknown }).sessionToken : undefined;
    return typeof token === 'string' && token !== '' && token.length <= 256 ? token : undefined;
  } catch {
    return undefined;
  }
}
