/**
 * The WebSocket endpoint `/ws` as a fastify plugin: an upgrade goes through the connect-rate
 * limit, the connect check and {@link Admission}, and becomes a {@link Connection}; idle
 * connections are closed; `app.close()` drains every socket with 1012 (a `preClose` hook).
 * Nothing a client sends can throw out of a handler, and no frame of an accepted client is
 * dropped silently (see {@link EarlyFrames}).
 * @module
 */

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { WebSocket, WebSocketServer } from 'ws';
import { refuse, type ChatContext } from '../chat/context.js';
import type { Messaging } from '../chat/messaging.js';
import type { Sessions } from '../chat/sessions.js';
import type { AgentLogin } from '../agents/login.js';
import type { AgentPresence } from '../agents/presence.js';
import type { AgentTokens } from '../agents/session-tokens.js';
import type { RsaPrivateKey } from '../crypto.js';
import { clientAddress, type TrustProxy } from '../http/client-address.js';
import type { LimiterFactory } from '../cluster/node-services.js';
import type { Services } from '../services/index.js';
import { Admission, welcomeOf } from './admission.js';
import { BANNED_CLOSE, CONNECT_REFUSED, SERVER_ERROR_CLOSE, SERVICE_RESTART_CLOSE, TOO_MANY_CONNECTIONS_CLOSE } from './close-codes.js';
import { checkConnect, ConnectRefused, type ConnectIdentity } from './connect-check.js';
import { Connection } from './connection.js';
import { EarlyFrames } from './early-frames.js';
import { DRAIN_GRACE_MS, LiveConnections, settledWithin } from './live-connections.js';
import type { SocketSlot, SocketSlots } from './socket-slots.js';
import { WriteBatch } from './write-batch.js';

export { BANNED_CLOSE, IDLE_CLOSE, SERVER_ERROR_CLOSE, TOO_MANY_CONNECTIONS_CLOSE } from './close-codes.js';
export { MAX_PENDING_FRAMES, RESUME_PENDING_FRAMES } from './connection.js';

/** The largest frame accepted (bytes); a larger one closes the connection with 1009. */
export const MAX_FRAME_BYTES = 64 * 1024;

/** What the socket endpoint needs. */
export interface SocketDeps {
  /** Shared chat state. */
  ctx: ChatContext;
  /** Sessions. */
  sessions: Sessions;
  /** The services (built once by `createServices`): the connect check and admission call them. */
  services: Services;
  /** Frame handling. */
  messaging: Messaging;
  /** The server's RSA key. */
  rsa: RsaPrivateKey;
  /** The HMAC secret. */
  secret: string;
  /** Reports unexpected errors (never thrown to the client). */
  onError: (error: unknown) => void;
  /** Which peers are trusted proxies (their `X-Forwarded-For` names the client); nobody by default. */
  trustProxy?: TrustProxy;
  /** Agent logins (throttled). */
  agentLogin: AgentLogin;
  /** Agent session tokens (issued at a password login). */
  agentTokens: AgentTokens;
  /** Agents within their grace period. */
  agentPresence: AgentPresence;
  /** Rate limits (one allowance for the whole cluster when there is one). */
  limiter: LimiterFactory;
  /** The open sockets per identity (the cluster's, when there is one). */
  socketSlots: SocketSlots;
}

/** The plugin's options: its deps, and the registry of admitted connections (the caller counts them). */
export interface SocketPluginOptions extends SocketDeps {
  /** The admitted connections (created by the caller, which reads their number). */
  live: LiveConnections<Connection>;
}

/** The endpoint's state shared by its steps. */
interface Endpoint {
  readonly deps: SocketPluginOptions;
  readonly wss: WebSocketServer;
  readonly admission: Admission;
  /** Sockets upgraded but not admitted yet (the drain closes them too). */
  readonly admitting: Set<WebSocket>;
  /** The connect checks and admissions in flight (they use the store: a close waits for them). */
  readonly admissions: Set<Promise<void>>;
  closing: boolean;
}

/** The socket endpoint `/ws` (see the module comment). */
export const socketPlugin: FastifyPluginAsync<SocketPluginOptions> = async (app, deps) => {
  const { ctx } = deps;
  const endpoint: Endpoint = {
    deps,
    wss: new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES }),
    admission: new Admission({ ...deps, hub: ctx.hub }),
    admitting: new Set(),
    admissions: new Set(),
    closing: false,
  };
  const { connectsMax, connectsWindowMs } = ctx.config.abuse;
  const connects = deps.limiter('connects', connectsMax, connectsWindowMs);
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (endpoint.closing || (req.url ?? '').split('?')[0] !== '/ws') {
      socket.destroy();
      return;
    }
    // connects per address, before any cryptographic work: HTTP 413 ("too many requests")
    Promise.resolve(connects.hit(`ip:${addressOf(req, deps)}`, Date.now())).then(
      (allowed) => upgrade(endpoint, allowed, req, socket, head),
      (error: unknown) => {
        // the shared limit does not answer (Redis down): refuse rather than let a flood through
        deps.onError(error);
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      },
    );
  };
  app.server.on('upgrade', onUpgrade);
  const stopIdleSweep = deps.live.sweepIdle(ctx.config.socketIdleMs);

  app.addHook('preClose', async () => {
    endpoint.closing = true;
    stopIdleSweep();
    app.server.off('upgrade', onUpgrade);
    for (const ws of endpoint.admitting) ws.close(SERVICE_RESTART_CLOSE, 'service restart');
    await deps.live.drain();
    await settledWithin(Promise.allSettled([...endpoint.admissions]), DRAIN_GRACE_MS);
    await new Promise<void>((resolve) => endpoint.wss.close(() => resolve()));
  });
};

function addressOf(req: IncomingMessage, deps: SocketDeps): string {
  return clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], deps.trustProxy ?? (() => false));
}

/** Completes an upgrade the connect limit allowed (or answers 413). */
function upgrade(endpoint: Endpoint, allowed: boolean, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  if (socket.destroyed) return;
  if (endpoint.closing) {
    // the drain began while the limit answered: this socket would outlive it
    socket.destroy();
    return;
  }
  if (!allowed) {
    socket.end('HTTP/1.1 413 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  // the 101, the welcome and the session's first frames leave together when the check answers within this turn
  const writes = new WriteBatch(socket);
  writes.hold();
  endpoint.wss.handleUpgrade(req, socket, head, (ws) => {
    try {
      accept(endpoint, ws, req, writes);
    } catch (error) {
      endpoint.deps.onError(error);
      ws.close(SERVER_ERROR_CLOSE, 'server error');
    }
  });
}

/** Runs the connect check and admission; frames sent meanwhile are held, never dropped. */
function accept(endpoint: Endpoint, ws: WebSocket, req: IncomingMessage, writes: WriteBatch): void {
  const { deps } = endpoint;
  ws.on('error', () => {
    // oversize frames (1009) and broken sockets land here; the close handler cleans up
  });
  const early = new EarlyFrames(ws);
  ws.on('message', early.hold);
  endpoint.admitting.add(ws);
  const settled = (): void => {
    endpoint.admitting.delete(ws);
    ws.off('message', early.hold);
  };
  const params = new URL(req.url ?? '/', 'http://localhost').searchParams.get('params') ?? '';
  const admission = checkConnect(params, {
    rsa: deps.rsa,
    secret: deps.secret,
    services: deps.services,
    agentLogin: deps.agentLogin,
    address: addressOf(req, deps),
  })
    .then(async (identity) => {
      if (ws.readyState === WebSocket.OPEN) await admit(endpoint, ws, identity, early, writes);
    })
    .catch((error: unknown) => {
      if (ws.readyState !== WebSocket.OPEN) return;
      if (error instanceof ConnectRefused) ws.close(error.code, error.message);
      else {
        deps.onError(error);
        ws.close(CONNECT_REFUSED, 'unauthorized');
      }
    })
    .finally(() => {
      settled();
      early.discard();
      // a refused socket paused by its early frames reads again, so that its close handshake completes
      if (ws.readyState !== WebSocket.OPEN && ws.isPaused) ws.resume();
      endpoint.admissions.delete(admission);
    });
  endpoint.admissions.add(admission);
}

/** Admits a checked connect; an admitted one gets its connection, the held frames, and the welcome. */
async function admit(endpoint: Endpoint, ws: WebSocket, identity: ConnectIdentity, early: EarlyFrames, writes: WriteBatch): Promise<void> {
  const { deps } = endpoint;
  const result = await endpoint.admission.admit(identity);
  if (result.kind === 'too-many') {
    ws.close(TOO_MANY_CONNECTIONS_CLOSE, 'too many connections');
    return;
  }
  const userKey = deps.ctx.config.aesSwitch ? Buffer.from(identity.keySession.token, 'utf8') : null;
  const connection = new Connection({ ...deps, hub: deps.ctx.hub, socket: ws, identity, userKey, agentToken: result.kind === 'admitted' ? result.agentToken : undefined, writes, keySessions: deps.services.identity });
  if (result.kind === 'banned') {
    refuse(connection.peer, 'banned', '');
    ws.close(BANNED_CLOSE, 'banned');
    return;
  }
  // the socket may have closed while the services answered: then nothing is registered
  if (ws.readyState !== WebSocket.OPEN) {
    result.slot.release();
    return;
  }
  register(endpoint, ws, connection, result.slot);
  connection.peer.send(welcomeOf(identity, result.issuedToken, Date.now()));
  // the session's start runs before any frame of this socket (a text must find its session)
  connection.enqueue(() => endpoint.admission.started(connection.peer, identity, result.agentWasOffline));
  // then the frames held since the socket opened, in order, then the live ones
  ws.off('message', early.hold);
  early.handOver((data, isBinary) => connection.receive(data, isBinary));
  ws.on('message', (data, isBinary) => connection.receive(data, isBinary));
  connection.resumeUnlessBacklogged();
}

/** Adds an admitted connection to the hub and the registry; its close removes it from both and gives its slot back. */
function register(endpoint: Endpoint, ws: WebSocket, connection: Connection, slot: SocketSlot): void {
  const { deps } = endpoint;
  const { peer } = connection;
  endpoint.admitting.delete(ws);
  deps.live.add(connection);
  deps.ctx.hub.add(peer);
  ws.on('close', () => {
    slot.release();
    deps.live.delete(connection);
    deps.ctx.hub.remove(peer);
    if (peer.role === 'agent' && !deps.ctx.hub.isHere(peer.userId)) {
      deps.sessions.agentsChanged();
      deps.agentPresence.went(peer.userId);
    }
  });
}
