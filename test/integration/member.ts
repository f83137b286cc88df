/**
 * Verified members (protocol §3b) in the SDK's integration tests: the demo merchant's secret, the
 * server environment that knows it, a token as the merchant's backend signs it, and the traces a
 * member leaves on a device (a text sent, a draft, a text pending in the durable outbox).
 */
import { expect } from 'vitest';
import { signIdentityToken } from '../../examples/server/src/identity/identity-token.js';
import type { ImClient } from '../../src/index.js';
import type { OutboxStorage } from '../../src/outbox/storage.js';
import { DEMO, waitUntil } from './harness.js';

/** The demo merchant's identity-token secret in these tests. */
export const MEMBER_SECRET = 'demo-merchant-secret-for-the-sdk-tests-0123456789';

/** The server environment: the demo merchant's secret (and `extra` secrets), sockets not rate-limited. */
export function memberEnv(extraSecrets = ''): Record<string, string> {
  return { MERCHANT_SECRETS: `${DEMO.mchId}:${MEMBER_SECRET}${extraSecrets ? `,${extraSecrets}` : ''}`, RATE_SOCKET_MAX: '1000' };
}

/** A token as the merchant's backend signs it (10 minutes, name Ann). */
export function memberToken(sub: string, mchId: string = DEMO.mchId, secret = MEMBER_SECRET): Promise<string> {
  return signIdentityToken({ mchId, sub, ttlS: 600, name: 'Ann' }, secret);
}

/**
 * Leaves a member's traces on the device of an open client: a text sent and stored, a draft, and
 * a text written while disconnected (pending in the durable outbox).
 * @returns the member's id and the outbox scope holding the pending text
 */
export async function leaveMemberTraces(client: ImClient, outboxStorage: OutboxStorage): Promise<{ memberId: string; scope: string }> {
  const memberId = client.userId!;
  const said = client.sendText('my card ends in 4242');
  await waitUntil(() => expect(client.messages.get(said.fp!)?.sendState).toBe('sent'));
  client.drafts.set('service', 'my home address is');
  client.disconnect();
  client.sendText('written while offline');
  const scope = `${memberId}|${DEMO.mchId}|${DEMO.platformId}|`;
  await waitUntil(async () => expect(await outboxStorage.load(scope)).toHaveLength(1));
  return { memberId, scope };
}
