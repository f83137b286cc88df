/**
 * The agent accounts: those of `AGENTS` (hashed at load, held in memory) and those added to the
 * store with the admin command. An account named in `AGENTS` wins over a stored one of that name.
 * Each belongs to its merchants (`agents/merchants.ts`).
 * @module
 */

import type { AgentAccount } from '../config.js';
import type { Store } from '../store/types.js';

/** Finds agents by account or user id. */
export class AgentDirectory {
  constructor(
    private readonly configured: readonly AgentAccount[],
    private readonly store: Store,
  ) {}

  /** The account, from `AGENTS` or the store. */
  async find(account: string): Promise<AgentAccount | undefined> {
    const own = this.configured.find((a) => a.account === account);
    if (own) return own;
    const stored = await this.store.identity.agent(account);
    return stored ? { account: stored.account, name: stored.name, passwordHash: stored.passwordHash, merchants: stored.merchants } : undefined;
  }

  /** The merchants of the agent behind a user id `agent:<account>` (none for anybody else). */
  async merchantsOf(userId: string): Promise<readonly string[]> {
    return (await this.byUserId(userId))?.merchants ?? [];
  }

  /** The account behind a user id `agent:<account>`. */
  async byUserId(userId: string): Promise<AgentAccount | undefined> {
    return userId.startsWith('agent:') ? this.find(userId.slice('agent:'.length)) : undefined;
  }

  /** Every account (configured first). */
  async list(): Promise<AgentAccount[]> {
    const out = [...this.configured];
    for (const a of await this.store.identity.agents()) {
      if (!out.some((x) => x.account === a.account)) out.push({ account: a.account, name: a.name, passwordHash: a.passwordHash, merchants: a.merchants });
    }
    return out;
  }
}
