/**
 * `useClientState`, `useMerchantInfo` and `useSession`: selectors over the client's stores.
 * @module
 */
import type { ClientState, SessionState } from '@kefu-im/sdk';
import { useImClient } from './context.js';
import { identity, useStoreSelector, type EqualityFn } from './store-selector.js';

/**
 * The persisted client state (`client.state`, spec §3): `language`, `uuid`, `paramsData`,
 * `merchantInfo`, `leaveMessage`. Re-renders only when the selected slice changes.
 *
 * ```tsx
 * const leaveMessage = useClientState((s) => s.leaveMessage);
 * ```
 * @param selector - picks a slice (default: the whole state)
 * @param isEqual - optional equality of two slices (default `Object.is`)
 */
export function useClientState<S = ClientState>(selector?: (state: ClientState) => S, isEqual?: EqualityFn<S>): S {
  const client = useImClient();
  return useStoreSelector(client.state, selector ?? identity<ClientState, S>, isEqual);
}

function merchantInfoOf(state: ClientState): ClientState['merchantInfo'] {
  return state.merchantInfo;
}

/**
 * The merchant info held in the client state (`kefuAvatar2` and the rest of `getMerchantById`'s
 * answer, persisted), `null` until loaded. Load it with `useImClient().loadMerchantInfo()` (or set
 * it with `client.state.setMerchantInfo(info)`); every reader re-renders then.
 */
export function useMerchantInfo(): ClientState['merchantInfo'] {
  return useClientState(merchantInfoOf);
}

/**
 * The conversation session (`client.session`): `status` (`robot`, `queued`, `agent`, `ended`),
 * `position` in the queue, `busy` (no agent online), `agent`, `rateInvited`, `suggestions`,
 * `sessionId`. Re-renders only when the selected slice changes.
 *
 * ```tsx
 * const status = useSession((s) => s.status);
 * const { position, busy } = useSession((s) => ({ position: s.position, busy: s.busy }), shallowEqual);
 * ```
 * @param selector - picks a slice (default: the whole session state)
 * @param isEqual - optional equality of two slices (default `Object.is`)
 */
export function useSession<S = SessionState>(selector?: (session: SessionState) => S, isEqual?: EqualityFn<S>): S {
  const client = useImClient();
  return useStoreSelector(client.session, selector ?? identity<SessionState, S>, isEqual);
}
