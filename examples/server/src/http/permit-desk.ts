/**
 * Permit calls of the agent desk (docs/protocol.md §3b): canned replies, past conversations and a
 * queued visitor's transcript. Every one needs a key session bound to an agent (a visitor's key
 * session gets 4003 before anything is read or changed); fields are bounded (code 1001 names the
 * field) and the server-wide HTTP rate limit applies.
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

/** Registers cannedList, cannedAdd, cannedRemove, pastList, pastOpen, closeConversation, visitorContext and queuedTranscript. */
export function registerDeskRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const { canned, past } = deps.services;

  agentRoute(app, deps, 'cannedList', (p) => canned.list(reqStr(p, 'mchId')));
  agentRoute(app, deps, 'cannedAdd', (p) =>
    canned.add({
      mchId: reqStr(p, 'mchId'),
      title: reqStr(p, 'title', MAX_CANNED_TITLE),
      text: reqStr(p, 'text', MAX_CANNED_TEXT),
      shortcut: reqStr(p, 'shortcut', 33),
    }),
  );
  agentRoute(app, deps, 'cannedRemove', async (p) => {
    await canned.remove(reqStr(p, 'mchId'), reqStr(p, 'id'));
    return true;
  });

  agentRoute(app, deps, 'pastList', (p, agent) => {
    const mchId = optStr(p, 'mchId');
    const visitor = optStr(p, 'visitor', MAX_SEARCH);
    const text = optStr(p, 'text', MAX_SEARCH);
    return past.list(agent.identity, {
      ...(mchId === '' ? {} : { mchId }),
      ...(visitor === '' ? {} : { visitor }),
      ...(text === '' ? {} : { text }),
      offset: optInt(p, 'offset', 0, 100_000) ?? 0,
      size: optInt(p, 'size', 1, MAX_PAST_PAGE) ?? 20,
    });
  });
  agentRoute(app, deps, 'pastOpen', (p, agent) => past.open(agent.identity, reqStr(p, 'sessionId')));
  agentRoute(app, deps, 'closeConversation', (p, agent) => past.close(agent.identity, reqStr(p, 'sessionId')));
  agentRoute(app, deps, 'visitorContext', async (p, agent) =>
    past.context(await agent.actFor(reqStr(p, 'clientId')), reqStr(p, 'mchId'), reqStr(p, 'platformId')),
  );
  agentRoute(app, deps, 'queuedTranscript', (p, agent) =>
    past.queued(agent.identity, reqStr(p, 'clientId'), reqStr(p, 'mchId'), reqStr(p, 'platformId')),
  );
}
