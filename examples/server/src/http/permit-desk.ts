/**
 * Permit calls of the agent desk (docs/protocol.md §7): canned replies (list, add, update,
 * remove), past conversations, a queued visitor's transcript, the visitor context and closing an
 * ended conversation. Every one needs a key session bound to an agent (a visitor's key session gets
 * 4003 before anything is read or changed) and names only the agent's own merchants (another
 * merchant's anything is 4003); fields are bounded (code 1001 names the field) and the server-wide
 * HTTP rate limit applies.
 * @module
 */

import type { FastifyInstance } from 'fastify';
import { MAX_CANNED_TEXT, MAX_CANNED_TITLE } from '../services/canned.js';
import { requireAgent } from '../services/past.js';
import type { Caller } from './caller.js';
import type { HttpDeps } from './deps.js';
import { boundRoute } from './permit-common.js';
import { optInt, optStr, reqStr, type Payload } from './validate.js';

/** The most conversations one listing page holds. */
export const MAX_PAST_PAGE = 50;
/** The longest search text (characters). */
export const MAX_SEARCH = 200;

/** Registers an agent-only (enc) permit call under `/im/api/permit/agent/<name>`. */
function agentRoute(app: FastifyInstance, deps: HttpDeps, name: string, handler: (p: Payload, agent: Caller) => unknown): void {
  boundRoute(app, deps, 'POST', `agent/${name}`, (p, caller) => {
    requireAgent(caller.identity);
    return handler(p, caller);
  });
}

/** Registers cannedList, cannedAdd, cannedUpdate, cannedRemove, pastList, pastOpen, closeConversation, visitorContext and queuedTranscript. */
export function registerDeskRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const { canned, past } = deps.services;

  // a merchant's canned replies: its agents only
  agentRoute(app, deps, 'cannedList', async (p, agent) => canned.list(await agent.requireMerchant(reqStr(p, 'mchId'))));
  agentRoute(app, deps, 'cannedAdd', async (p, agent) =>
    canned.add({
      mchId: await agent.requireMerchant(reqStr(p, 'mchId')),
      title: reqStr(p, 'title', MAX_CANNED_TITLE),
      text: reqStr(p, 'text', MAX_CANNED_TEXT),
      shortcut: reqStr(p, 'shortcut', 33),
    }),
  );
  agentRoute(app, deps, 'cannedUpdate', async (p, agent) =>
    canned.update(reqStr(p, 'id'), {
      mchId: await agent.requireMerchant(reqStr(p, 'mchId')),
      title: reqStr(p, 'title', MAX_CANNED_TITLE),
      text: reqStr(p, 'text', MAX_CANNED_TEXT),
      shortcut: reqStr(p, 'shortcut', 33),
    }),
  );
  agentRoute(app, deps, 'cannedRemove', async (p, agent) => {
    await canned.remove(await agent.requireMerchant(reqStr(p, 'mchId')), reqStr(p, 'id'));
    return true;
  });

  // past conversations, transcripts, the context: of the agent's merchants only
  agentRoute(app, deps, 'pastList', async (p, agent) => {
    const mchId = optStr(p, 'mchId');
    const visitor = optStr(p, 'visitor', MAX_SEARCH);
    const text = optStr(p, 'text', MAX_SEARCH);
    return past.list(agent.identity, {
      ...(mchId === '' ? {} : { mchId: await agent.requireMerchant(mchId) }),
      mchIds: await agent.merchants(),
      ...(visitor === '' ? {} : { visitor }),
      ...(text === '' ? {} : { text }),
      offset: optInt(p, 'offset', 0, 100_000) ?? 0,
      size: optInt(p, 'size', 1, MAX_PAST_PAGE) ?? 20,
    });
  });
  agentRoute(app, deps, 'pastOpen', async (p, agent) => past.open(agent.identity, reqStr(p, 'sessionId'), await agent.merchants()));
  agentRoute(app, deps, 'closeConversation', async (p, agent) => past.close(agent.identity, reqStr(p, 'sessionId'), await agent.merchants()));
  agentRoute(app, deps, 'visitorContext', async (p, agent) =>
    past.context(await agent.actFor(reqStr(p, 'clientId'), reqStr(p, 'mchId')), reqStr(p, 'mchId'), reqStr(p, 'platformId')),
  );
  agentRoute(app, deps, 'queuedTranscript', async (p, agent) =>
    past.queued(agent.identity, reqStr(p, 'clientId'), await agent.requireMerchant(reqStr(p, 'mchId')), reqStr(p, 'platformId')),
  );
}
