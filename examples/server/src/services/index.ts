/**
 * The services: every rule of the server in one place, over the store. Built once by
 * {@link createServices} (composition: config -> store -> services -> plugins); the HTTP routes
 * and the socket call them and never touch the store.
 * @module
 */

import type { ChatContext } from '../chat/context.js';
import type { Sessions } from '../chat/sessions.js';
import { Arrivals } from './arrivals.js';
import { Canned } from './canned.js';
import type { Availability } from './availability.js';
import { Conversations } from './conversations.js';
import { Groups } from './groups.js';
import { Identity } from './identity.js';
import { Members } from './members.js';
import { Merchants } from './merchants.js';
import { sealingKeyOf } from '../identity/merchant-secrets.js';
import { Past } from './past.js';
import { Privacy, type PrivacyDeps } from './privacy.js';
import { Records } from './records.js';
import { Retention, type RetentionDeps } from './retention.js';
import { sneakPeekOn, Typing } from './typing.js';
import { Uploads } from './uploads.js';
import { Visitors } from './visitors.js';

/** Every service, built once per server. */
export interface Services {
  /** Key sessions and who may act for whom. */
  readonly identity: Identity;
  /** The visitor rule (ban, blacklist), the upsert on connect, profiles. */
  readonly visitors: Visitors;
  /** Joining groups, membership, member lists. */
  readonly groups: Groups;
  /** Merchants, platforms, orders, entry links. */
  readonly merchants: Merchants;
  /** History, rating, the robot's answers, session updates, FAQ. */
  readonly conversations: Conversations;
  /** Complaints and left messages. */
  readonly records: Records;
  /** Upload records and quotas. */
  readonly uploads: Uploads;
  /** Canned replies per merchant. */
  readonly canned: Canned;
  /** What visitors arrived with (the desk's context panel). */
  readonly arrivals: Arrivals;
  /** Past conversations and queued visitors' transcripts (agents only). */
  readonly past: Past;
  /** Typing signals and sneak peek (type 105): who hears them, the rate rule, the preview. */
  readonly typing: Typing;
  /** Business hours, agents available, the queue's estimated wait. */
  readonly availability: Availability;
  /** A visitor's export and deletion (the admin API and command). */
  readonly privacy: Privacy;
  /** Retention: what is older than the setting goes, once per period in the cluster. */
  readonly retention: Retention;
  /** Verified identity (protocol §3b): tokens, members, the merge, merchant secrets. */
  readonly members: Members;
}

/** The uploaded files on disk, as the services remove them (a `FileStore` has it). */
export type ServiceFiles = PrivacyDeps['files'] & RetentionDeps['files'];

/**
 * Builds the services over the chat state, the session engine and the files on disk.
 * @param now - the wall clock
 * @param sealingKey - the key that seals merchant secrets in the store (`identity/merchant-secrets.ts`);
 *   by default `MERCHANT_SECRETS_KEY`, or a key derived from nothing (tests that store no secret)
 */
export function createServices(
  ctx: ChatContext,
  sessions: Sessions,
  files: ServiceFiles,
  now: () => number = Date.now,
  sealingKey: Buffer = sealingKeyOf(ctx.config.identity.sealingKey, ''),
): Services {
  const { store, config } = ctx;
  const visitors = new Visitors(store, now);
  const groups = new Groups(store, visitors, ctx.groupAlias, now);
  const merchants = new Merchants(store, (merchant) => sneakPeekOn(config.sneakPeekMerchants, merchant));
  return {
    identity: new Identity(store, config.keySessionTtlMs, now, (agentId) => ctx.agents.merchantsOf(agentId), config.keySessionUnboundTtlMs),
    visitors,
    groups,
    merchants,
    conversations: new Conversations(ctx, sessions, visitors, merchants, groups),
    records: new Records(store, ctx.clock, merchants),
    uploads: new Uploads(store, config.upload.quotaBytesPerDay, now),
    canned: new Canned(store, now),
    arrivals: new Arrivals(store, now),
    past: new Past(store, now),
    typing: new Typing(store, config.sneakPeekMerchants, visitors, now),
    availability: sessions.availability,
    privacy: new Privacy({
      store,
      files,
      disconnect: (userId, code, reason) => ctx.hub.disconnect(userId, code, reason),
      changed: () => sessions.agentsChanged(),
      now,
    }),
    members: new Members({
      store,
      config: config.identity,
      sealingKey,
      disconnect: (userId, code, reason) => ctx.hub.disconnect(userId, code, reason),
      changed: () => sessions.agentsChanged(),
      now,
    }),
    retention: new Retention({ store, files, nodeId: config.nodeId, envDays: config.privacy.retentionDays, intervalMs: config.privacy.retentionIntervalMs, now }),
  };
}
