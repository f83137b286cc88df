/**
 * Conversation calls over the permit API that need the client's identity: rating and the
 * merchant info.
 * @module
 * @internal
 */
import type { ClientContext } from './client-context.js';
import { ImError } from './errors.js';
import type { MerchantInfo } from './http/types.js';
import type { ClientStateStore } from './state/client-state.js';

type Ids = { mchId: string | number; platformId: string | number };

/**
 * Rates the conversation (markScore) and clears the rating invite.
 * @throws {@link ImError} `invalid-score` (and a `rateRequired` notice) unless 1 <= score <= 5
 * @internal
 */
export async function rateConversation(
  ctx: Pick<ClientContext, 'api' | 'session' | 'i18n' | 'notify' | 'clientId' | 'connectData'>,
  score: number,
  remark?: string,
): Promise<void> {
  if (!Number.isInteger(score) || score < 1 || score > 5) {
    ctx.notify('rateRequired', 'warning');
    throw new ImError('invalid-score', ctx.i18n.t('rateRequired'));
  }
  const { sessionId } = ctx.session.getState();
  const { mchId, platformId } = ctx.connectData() as Ids;
  await ctx.api.markScore({ clientId: ctx.clientId(), mchId, platformId, ...(sessionId ? { sessionId } : {}), score, ...(remark ? { remark } : {}) });
  ctx.session.setState({ rateInvited: false });
}

/** Loads the merchant info into the persisted client state and returns it. @internal */
export async function loadMerchantInfo(ctx: Pick<ClientContext, 'api' | 'connectData'>, state: ClientStateStore): Promise<MerchantInfo> {
  const { mchId, platformId } = ctx.connectData() as Ids;
  const info = await ctx.api.getMerchantById({ mchId, platformId });
  state.setMerchantInfo(info as Record<string, unknown>);
  return info;
}

export { identify, reset } from './identity-switch.js';
