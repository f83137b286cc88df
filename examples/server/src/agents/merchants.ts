/**
 * Which merchants an agent works for (desk issue "the desk runs a real support team"). An agent
 * account belongs to one merchant or a few: it sees only their queue, conversations, canned
 * replies and past conversations, is routed and transferred only their visitors, and any call
 * naming another merchant's visitor is refused. Accounts of `AGENTS` get theirs from
 * `AGENT_MERCHANTS` (`alice:M1001|M2002,*:M1001`, `*` for every account not named); accounts
 * in the store from the admin command. Either way the default is the demo merchant.
 * @module
 */

/** The merchant an agent belongs to when nothing says otherwise: the demo merchant of the seed. */
export const DEFAULT_AGENT_MERCHANT = 'M1001';

/** A merchant id as an agent's merchant: 1-64 letters, digits, `_`, `.`, `-`. */
export const MERCHANT_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/** The most merchants one agent belongs to. */
export const MAX_AGENT_MERCHANTS = 50;

/** Raised for an unusable merchant list (the caller turns it into its own error). */
export class AgentMerchantsError extends Error {
  override name = 'AgentMerchantsError';
}

/**
 * A list of merchant ids (`M1001|M2002` or `M1001,M2002`): trimmed, each once, in the order given.
 * @throws AgentMerchantsError when empty, too long, or an id is malformed
 */
export function parseMerchantList(raw: string, what = 'the merchant list'): string[] {
  const ids = [...new Set(raw.split(/[|,]/).map((id) => id.trim()).filter((id) => id !== ''))];
  if (ids.length === 0) throw new AgentMerchantsError(`${what} names no merchant`);
  if (ids.length > MAX_AGENT_MERCHANTS) throw new AgentMerchantsError(`${what} names more than ${MAX_AGENT_MERCHANTS} merchants`);
  const bad = ids.find((id) => !MERCHANT_ID.test(id));
  if (bad !== undefined) throw new AgentMerchantsError(`${what}: "${bad}" is not a merchant id (1-64 letters, digits, _ . -)`);
  return ids;
}

/** What `AGENT_MERCHANTS` says: merchants per account, and those of every other account. */
export interface AgentMerchantsConfig {
  /** Merchants per account named. */
  readonly byAccount: Readonly<Record<string, readonly string[]>>;
  /** The merchants of an account not named (`*`; the demo merchant by default). */
  readonly fallback: readonly string[];
}

/**
 * Parses `AGENT_MERCHANTS`: comma-separated `account:M1|M2` entries; `*:M1` sets the merchants
 * of every account not named.
 * @throws AgentMerchantsError for a malformed entry or an account named twice
 */
export function parseAgentMerchants(raw: string): AgentMerchantsConfig {
  const byAccount: Record<string, readonly string[]> = {};
  let fallback: readonly string[] = [DEFAULT_AGENT_MERCHANT];
  for (const entry of raw.split(',')) {
    if (entry.trim() === '') continue;
    const [account = '', list = '', ...rest] = entry.split(':').map((part) => part.trim());
    if ((account !== '*' && !/^[A-Za-z0-9_.-]{1,32}$/.test(account)) || rest.length > 0) {
      throw new AgentMerchantsError(`AGENT_MERCHANTS entries are "account:M1001|M2002" (or "*:M1001"), got "${entry.trim()}"`);
    }
    const merchants = parseMerchantList(list, `AGENT_MERCHANTS (${account})`);
    if (account === '*') fallback = merchants;
    else if (byAccount[account] !== undefined) throw new AgentMerchantsError(`AGENT_MERCHANTS names the account "${account}" twice`);
    else byAccount[account] = merchants;
  }
  return { byAccount, fallback };
}

/** Whether an agent with these merchants works for `mchId`. */
export function servesMerchant(merchants: readonly string[], mchId: string): boolean {
  return mchId !== '' && merchants.includes(mchId);
}
