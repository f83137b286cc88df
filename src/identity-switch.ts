/**
 * Switching the visitor of a running client (protocol §3b), loaded on first use:
 * `client.identify()` makes it the merchant's verified member (the anonymous conversation is kept:
 * the server merges it into the member's), `client.reset()` forgets the member on this device (the
 * identity token, the §3a secret, the drafts and the durable outbox of that identity) and starts a
 * new anonymous visitor with a new client id. Neither reloads the page nor replaces the client:
 * its stores are cleared in place and refilled, so bindings follow without remounting.
 * @module
 * @internal
 */
import type { ImClient } from './client.js';
import type { Engine } from './engine.js';
import type { IdentityChange } from './events.js';
import type { IdentityTokenSource } from './options.js';

// No runtime import here: a module shared with the start-up graph would split it into one more chunk.

/** What a token given to `identify()` may be: the JWT itself, or a source asked before each connect. */
export type IdentityInput = string | IdentityTokenSource;

function sourceOf(input: IdentityInput): IdentityTokenSource {
  if (typeof input === 'function') return input;
  if (typeof input !== 'string' || input.trim() === '') throw new TypeError('identify: pass the identity token (a JWT string) or a function that returns one.');
  return () => Promise.resolve(input);
}

/**
 * Closes the socket and forgets what speaks for the current visitor in memory: the conversation
 * held, the outbox in memory, the paging position, the session, the user id and the key session
 * (bound to that identity).
 */
async function leave(engine: Engine): Promise<{ wanted: boolean; stack: Awaited<ReturnType<Engine['loadSocket']>> }> {
  const wanted = engine.connectWanted;
  const stack = await engine.loadSocket();
  engine.disconnect();
  engine.forgetConversation(true);
  engine.connectionStore.setState({ userId: undefined, verified: false, welcomed: false });
  return { wanted, stack };
}

/**
 * `client.identify()`: the member's token (or token source) is in force from the next connect; the
 * client connects again at once (if it was connecting) and loads the member's history, which holds
 * the anonymous conversation once the server merged it (protocol §3b.4); the verified welcome makes
 * the member's id the client id. Pending messages are restored from the durable outbox and go out
 * after the welcome; drafts move to the member's id.
 * @param client - the client
 * @param engine - its engine
 * @param input - the token or a token source
 * @internal
 */
export async function identify(client: ImClient, engine: Engine, input: IdentityInput): Promise<void> {
  const source = sourceOf(input);
  const { wanted, stack } = await leave(engine);
  stack.identityTokens.setSource(source);
  stack.setIdentifying(true); // its own socket, not another tab's of the anonymous visitor
  engine.restoredScope = null; // the next connect restores the pending messages kept on this device
  // The drafts follow the visitor into the member's id (adopted at the verified welcome): held in
  // memory meanwhile, none left under the anonymous id.
  const drafts = Object.entries(client.drafts.getSnapshot());
  for (const [key] of drafts) client.drafts.set(key, '');
  const carryDrafts = (): void => {
    for (const [key, text] of drafts) if (client.drafts.get(key) === '') client.drafts.set(key, text);
  };
  client.emit('identity', { change: 'identify', clientId: client.clientId });
  if (!wanted) return carryDrafts();
  engine.connect();
  await client.history.loadOlder().then(
    () => undefined,
    () => undefined, // the paging snapshot holds the error
  );
  carryDrafts();
}

/**
 * `client.reset()`: the member logged out on the merchant's site. Forgets the identity token, the
 * §3a secret, the drafts and the durable outbox of the identity on this device, makes a new client
 * id and connects again (if it was connecting) as a new anonymous visitor.
 * @param client - the client
 * @param engine - its engine
 * @internal
 */
export async function reset(client: ImClient, engine: Engine): Promise<void> {
  const oldScope = engine.durable.deps.scope();
  const oldId = client.clientId;
  const { wanted, stack } = await leave(engine);
  stack.identityTokens.setSource(undefined);
  stack.setIdentifying(false);
  for (const key of Object.keys(client.drafts.getSnapshot())) client.drafts.set(key, '');
  await engine.durable.forget(oldScope);
  client.state.setState({ uuid: engine.hooks.createId(), clientSecret: null });
  stack.tabs.announceIdentity('reset', oldId, client.clientId); // the member's other tabs log out too
  client.emit('identity', { change: 'reset', clientId: client.clientId });
  if (wanted) engine.connect();
}

/**
 * Another tab of this visitor switched it (told over the tab channel): this tab follows. Its
 * conversation in memory is forgotten, it takes the other tab's client id (and the secret that
 * tab stored for it, if any) and connects again (if it was connecting) under that id, where it
 * shares the other tab's socket (and, after `identify`, is given the member's token by the tab
 * that leads, for a connect of its own if it leads later). After `reset` the identity token source
 * is dropped as well (the member logged out); after `identify` the member's history is loaded.
 * The drafts and the durable outbox in storage were forgotten (or moved) by the tab that switched.
 * The caller emits the `identity` event.
 * @param engine - the client's engine
 * @param ctx - what the other tab did and the client id now
 * @internal
 */
export async function follow(engine: Engine, ctx: { change: IdentityChange; clientId: string }): Promise<void> {
  const { wanted, stack } = await leave(engine);
  if (ctx.change === 'reset') stack.identityTokens.setSource(undefined);
  stack.identityTokens.adopt(null); // the leader of the identity followed shares its own, if any
  const { state } = engine.hooks;
  const stored = state.readStoredIdentity();
  // the other tab may have been welcomed already and stored the new id's secret (protocol §3a)
  state.setState({ uuid: ctx.clientId, clientSecret: stored.uuid === ctx.clientId ? stored.clientSecret : null });
  if (!wanted) return;
  engine.connect();
  if (ctx.change === 'identify') engine.history.loadOlder().catch(() => undefined); // the paging snapshot holds the error
}
