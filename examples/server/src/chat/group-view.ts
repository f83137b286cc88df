/**
 * What one reader may see of a group message (protocol §3a, group member privacy): other
 * visitors' client ids in `from` and in the read list become their per-group aliases; the
 * reader's own id stays as it is (so the app tells its own messages from the others').
 * @module
 */

import type { GroupAliaser } from '../identity/group-alias.js';
import type { WireMessage } from './wire.js';

/** Rewrites a group message's wire form for `reader`; other messages are returned unchanged. */
export function groupViewFor(wire: WireMessage, reader: string, alias: GroupAliaser): WireMessage {
  if (wire.isGroup !== 1) return wire;
  const groupId = typeof wire.to === 'string' ? wire.to : '';
  const out: WireMessage = { ...wire };
  if (typeof wire.from === 'string') out.from = alias(groupId, wire.from, reader);
  if (Array.isArray(wire.imGroupMsgReadList)) {
    out.imGroupMsgReadList = wire.imGroupMsgReadList.map((r) => ({ ...r, clientId: alias(groupId, r.clientId, reader) }));
  }
  return out;
}
