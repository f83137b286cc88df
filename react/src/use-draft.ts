/**
 * `useDraft`: the composer's text of one conversation, kept by the SDK (`client.drafts`) so it
 * survives a reload.
 * @module
 */
import type { DraftsSnapshot } from '@kefu-im/sdk';
import { useCallback } from 'react';
import { useImClient } from './context.js';
import { useStoreSelector } from './store-selector.js';

/**
 * The draft of a conversation and its setter, like `useState('')` but persisted by the client
 * (`client.drafts`). Set it to `''` after sending.
 *
 * ```tsx
 * const [draft, setDraft] = useDraft('service');
 * <textarea value={draft} onChange={(e) => setDraft(e.target.value)} />
 * ```
 * @param key - the conversation (e.g. `service`, or a group id)
 */
export function useDraft(key: string): [string, (text: string) => void] {
  const client = useImClient();
  const select = useCallback((drafts: DraftsSnapshot) => drafts[key] ?? '', [key]);
  const draft = useStoreSelector(client.drafts, select);
  const setDraft = useCallback((text: string) => client.drafts.set(key, text), [client, key]);
  return [draft, setDraft];
}
