/**
 * A services fixture for unit tests: a real SQLite store in a temporary directory, the chat state
 * and the services built the way `server.ts` builds them, and a small directory (a merchant with
 * an enabled and a disabled platform, an FAQ, an open and a closed group, a plain, a blacklisted
 * and a banned visitor). No HTTP server, no socket.
 * @module
 */

import { join } from 'node:path';
import { AgentDirectory } from '../../src/agents/directory.js';
import { MessageClock } from '../../src/chat/clock.js';
import type { ChatContext } from '../../src/chat/context.js';
import { Hub, type Peer } from '../../src/chat/hub.js';
import { Sessions } from '../../src/chat/sessions.js';
import type { WireMessage } from '../../src/chat/wire.js';
import { loadConfig } from '../../src/config.js';
import { ApiError } from '../../src/http/envelope.js';
import { FileStore } from '../../src/http/files.js';
import { groupAliaser } from '../../src/identity/group-alias.js';
import { createServices, type Services } from '../../src/services/index.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { removeDir, tempDir } from '../helpers/start.js';

/** The fixture's ids. */
export const F = {
  mchId: 'M1',
  platformId: 'P1',
  disabledPlatformId: 'P2',
  otherMchId: 'M2',
  questionId: 'q-deposit',
  question: 'How do I deposit?',
  answer: 'Open the wallet and choose Deposit.',
  otherPlatformQuestionId: 'q-elsewhere',
  openGroupId: 'g-open',
  closedGroupId: 'g-closed',
  plain: 'v-plain',
  blacklisted: 'v-blacklisted',
  banned: 'v-banned',
} as const;

/** A built fixture. */
export interface ServiceFixture {
  store: Store;
  ctx: ChatContext;
  sessions: Sessions;
  services: Services;
  /** Removes everything. */
  close(): Promise<void>;
}

/** A connection that records what it is sent. */
export interface RecordingPeer extends Peer {
  readonly sent: WireMessage[];
}

/** A peer that records its messages (add it to `ctx.hub` to receive pushes). */
export function recordingPeer(userId: string, role: Peer['role'] = 'visitor'): RecordingPeer {
  const sent: WireMessage[] = [];
  return {
    userId,
    role,
    name: `${userId} name`,
    avatar: '',
    mchId: role === 'visitor' ? F.mchId : '',
    platformId: role === 'visitor' ? F.platformId : '',
    language: 'en',
    saltKey: `salt-${userId}`,
    sent,
    send: (message) => {
      sent.push(message);
    },
    close: () => undefined,
  };
}

async function seed(store: Store): Promise<void> {
  const d = store.directory;
  await d.putMerchant({ mchId: F.mchId, name: 'Shop', kefuAvatar2: '', extra: { currency: 'CNY' } });
  await d.putPlatform({ mchId: F.mchId, platformId: F.platformId, name: 'Web', enabled: true });
  await d.putPlatform({ mchId: F.mchId, platformId: F.disabledPlatformId, name: 'Old', enabled: false });
  await d.putCategory({ id: 'c-pay', mchId: F.mchId, platformId: F.platformId, language: 'en', name: 'Payments', sort: 0 });
  await d.putQuestion({ id: F.questionId, categoryId: 'c-pay', mchId: F.mchId, platformId: F.platformId, language: 'en', question: F.question, answer: F.answer, keywords: 'deposit,top up', sort: 0 });
  await d.putQuestion({ id: F.otherPlatformQuestionId, categoryId: 'c-pay', mchId: F.mchId, platformId: F.disabledPlatformId, language: 'en', question: 'Elsewhere?', answer: 'Not here.', keywords: '', sort: 1 });
  await d.putGroup({ groupId: F.openGroupId, mchId: F.mchId, name: 'Open', kind: 'group', avatar: '', notice: '', open: true });
  await d.putGroup({ groupId: F.closedGroupId, mchId: F.mchId, name: 'Closed', kind: 'group', avatar: '', notice: '', open: false });
  const now = Date.now();
  for (const [clientId, flags] of [
    [F.plain, { blacklisted: false, banned: false }],
    [F.blacklisted, { blacklisted: true, banned: false }],
    [F.banned, { blacklisted: false, banned: true }],
  ] as const) {
    await store.chat.saveVisitor({ clientId, name: `${clientId} stored`, avatar: `/a/${clientId}.png`, language: 'en', createdAt: now, lastSeen: now, ...flags });
    await store.chat.setVisitorFlags(clientId, flags);
  }
}

/** Builds the fixture (a fresh database each time). */
export async function serviceFixture(): Promise<ServiceFixture> {
  const dir = tempDir();
  const store = new SqliteStore(join(dir, 'kefu.db'));
  const config = loadConfig({ AGENTS: 'alice:secret1:Alice', AGENT_MERCHANTS: `alice:${F.mchId}` }, { dataDir: dir, memoryDb: false, log: false });
  const ctx: ChatContext = { store, hub: new Hub(), clock: new MessageClock(0), config, agents: new AgentDirectory(config.agents, store), groupAlias: await groupAliaser(store) };
  const sessions = new Sessions(ctx);
  await seed(store);
  return {
    store,
    ctx,
    sessions,
    services: createServices(ctx, sessions, new FileStore(join(dir, 'files'), join(dir, 'parts'))),
    close: async () => {
      sessions.dispose();
      await store.close();
      removeDir(dir);
    },
  };
}

/** The code and message a call was refused with ({@link ApiError}); fails when it was not refused. */
export async function refusalOf(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('the call was not refused');
}
