/**
 * The composer's canned-reply source for one merchant: loads the merchant's replies into the
 * desk's store once and suggests from it (the UI only reads the store and calls the SDK).
 * @module
 */
import type { AgentDesk } from '@kefu-im/sdk/agent';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { SlashSource } from './canned-suggestions.js';

/** The `/shortcut` source of `mchId`'s canned replies (undefined without a merchant). */
export function useCannedSlash(desk: AgentDesk, mchId: string | undefined, label: string): SlashSource | undefined {
  const state = useSyncExternalStore(desk.canned.store.subscribe, desk.canned.store.getSnapshot);
  const loaded = mchId !== undefined && state.byMerchant[mchId] !== undefined;
  useEffect(() => {
    if (mchId !== undefined && !loaded) desk.canned.load(mchId).catch(() => undefined); // the error is in the store
  }, [desk, mchId, loaded]);
  const replies = mchId === undefined ? undefined : state.byMerchant[mchId];
  return useMemo(
    () => (mchId === undefined ? undefined : { label, suggest: (prefix: string) => (replies ? desk.canned.suggest(mchId, prefix) : []) }),
    [desk, mchId, label, replies],
  );
}
