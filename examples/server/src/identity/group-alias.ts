/**
 * Opaque per-group aliases (protocol §3a, group member privacy): other visitors' client ids never
 * leave the server in group frames, group history or member lists. A member is shown to the
 * others as `m-<16 hex>`, an HMAC of the group and client id under a random key kept in the
 * store (`meta` `group_alias_key`), so it is stable within a group (the app can group messages by
 * sender), differs between groups, and cannot be turned back into the client id.
 * The reader's own entries keep the real id, so the app still tells "mine" from "others".
 * @module
 */

import { createHmac, randomBytes } from 'node:crypto';
import type { Store } from '../store/types.js';

const META_KEY = 'group_alias_key';

/** Turns a member's client id into what a given reader may see. */
export type GroupAliaser = (groupId: string, clientId: string, reader: string) => string;

/**
 * Creates the aliaser, creating its key in the store on first use (every node of a cluster ends
 * up with the key that was stored first).
 */
export async function groupAliaser(store: Store): Promise<GroupAliaser> {
  const key = await store.metaOnce(META_KEY, randomBytes(32).toString('hex'));
  const secret = Buffer.from(key, 'hex');
  const cache = new Map<string, string>();
  return (groupId, clientId, reader) => {
    if (clientId === reader || clientId.startsWith('agent:') || clientId === 'robot' || clientId === 'system') return clientId;
    const k = `${groupId}\u0000${clientId}`;
    let alias = cache.get(k);
    if (alias === undefined) {
      alias = `m-${createHmac('sha256', secret).update(k).digest('hex').slice(0, 16)}`;
      if (cache.size > 10_000) cache.clear();
      cache.set(k, alias);
    }
    return alias;
  };
}
