/**
 * The WebSocket endpoint `/ws` on the HTTP server: the connect check, the welcome, heartbeats,
 * frames in and out, presence, and idle connections. Nothing a client sends can throw out of a
 * handler.
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { refuse, type ChatContext } from '../chat/context.js';
import type { Peer } from '../chat/hub.js';
import type { Messaging } from '../chat/messaging.js';
import type { Sessions } from '../chat/sessions.js';
import { T, type WireMessage } from '../chat/wire.js';
import type { AgentLogin } from '../agents/login.js';
import type { AgentPresence } from '../agents/presence.js';
import type { AgentTokens } from '../agents/session-tokens.js';
import type { RsaPrivateKey } from '../crypto.js';
import { clientAddress, type TrustProxy } from '../http/client-address.js';
import type { LimiterFactory } from '../cluster/node-services.js';
import { hashSecret } from '../identity/secrets.js';
import { checkConnect, ConnectRefused, CONNECT_REFUSED, identityRefused, type ConnectIdentity } from './connect-check.js';
import { decodeFrame, encodeFrame } from './codec.js';

/** The largest frame accepted (bytes); a larger one closes the connection with 1009. */
export const MAX_FRAME_BYTES = 64 * 1024;
/** The close code sent to a banned visitor after its refusal. */
export const BANNED_CLOSE = 4003;
/** The close code of a connection idle for too long. */
export const IDLE_CLOSE = 4002;
/**
 * The close code of a connect refused because its identity already has
 * `MAX_SOCKETS_PER_IDENTITY` sockets open: the newest is refused (never welcomed), the open ones
 * keep working.
 */
export const TOO_MANY_CONNECTIONS_CLOSE = 4005;

/** What the socket endpoint needs. */
export interface SocketDeps {
  /** Shared chat state. */
  ctx: ChatContext;
  /** Sessions. */
  sessions: Sessions;
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
}

/** The running endpoint. */
export interface SocketEndpoint {
  /** Stops accepting and closes every connection with 1012 (service restart). */
  close(): Promise<void>;
  /** Open connections. */
  readonly connections: () => number;
}

/**
 * Backpressure per connection: with this many frames waiting for the store, the server stops
 * reading the socket (TCP then slows the sender down) until {@link RESUME_PENDING_FRAMES} are left.
 */
export const MAX_PENDING_FRAMES = 256;
/** See {@link MAX_PENDING_FRAMES}. */
export const RESUME_PENDING_FRAMES = 64;
/** The close code of a connection whose frame the server could not handle (its store failed). */
export const SERVER_ERROR_CLOSE = 1011;

interface Live {
  peer: Peer;
  ws: WebSocket;
  lastFrame: number;
  /** The connection's work in order (see `enqueue`). */
  work: Promise<unknown>;
  /** How many pieces of work wait in {@link Live.work}. */
  pending: number;
}

/** Attaches the endpoint to `server` at path `/ws`. */
export function attachSocketServer(server: Server, deps: SocketDeps): SocketEndpoint {
  const { ctx } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const live = new Set<Live>();
  const { connectsMax, connectsWindowMs, socketsPerIdentity } = ctx.config.abuse;
  const connects = deps.limiter('connects', connectsMax, connectsWindowMs);

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/ws') {
      socket.destroy();
      return;
    }
    // connects per address, before any cryptographic work: HTTP 413 ("too many requests")
    const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], deps.trustProxy ?? (() => false));
    Promise.resolve(connects.hit(`ip:${address}`, Date.now())).then(
      (allowed) => {
        if (socket.destroyed) return;
        if (!allowed) {
          socket.end('HTTP/1.1 413 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
          return;
        }
        wss.handleUpgrade(req, socket, head, (ws) => {
          try {
            accept(ws, req);
          } catch (error) {
            deps.onError(error);
            ws.close(1011, 'server error');
          }
        });
      },
      (error: unknown) => {
        // the shared limit does not answer (Redis down): refuse rather than let a flood through
        deps.onError(error);
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      },
    );
  };
  server.on('upgrade', onUpgrade);

  function accept(ws: WebSocket, req: IncomingMessage): void {
    ws.on('error', () => {
      // oversize frames (1009) and broken sockets land here; the close handler cleans up
    });
    // frames sent before the connect is admitted wait for it (the check reads the store)
    const early: [WebSocket.RawData, boolean][] = [];
    const hold = (data: WebSocket.RawData, isBinary: boolean): void => {
      if (early.length < 32) early.push([data, isBinary]);
    };
    ws.on('message', hold);
    const params = new URL(req.url ?? '/', 'http://localhost').searchParams.get('params') ?? '';
    const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], deps.trustProxy ?? (() => false));
    const admitted = checkConnect(params, {
      rsa: deps.rsa,
      secret: deps.secret,
      store: ctx.store,
      config: ctx.config,
      now: Date.now(),
      agentLogin: deps.agentLogin,
      address,
    }).then((identity) => (ws.readyState === WebSocket.OPEN ? admit(ws, identity) : undefined));
    admitted.then(
      (entry) => {
        ws.off('message', hold);
        if (entry) for (const [data, isBinary] of early) ws.emit('message', data, isBinary);
      },
      (error: unknown) => {
        ws.off('message', hold);
        if (ws.readyState !== WebSocket.OPEN) return;
        if (error instanceof ConnectRefused) ws.close(error.code, error.message);
        else {
          deps.onError(error);
          ws.close(CONNECT_REFUSED, 'unauthorized');
        }
      },
    );
  }

  /** Admits a checked connect: claim and binding (protocol §3a), presence, welcome. */
  async function admit(ws: WebSocket, identity: ConnectIdentity): Promise<Live | undefined> {
    if (ctx.hub.connectionsOf(identity.userId) >= socketsPerIdentity) {
      ws.close(TOO_MANY_CONNECTIONS_CLOSE, 'too many connections');
      return undefined;
    }
    const userKey = ctx.config.aesSwitch ? Buffer.from(identity.keySession.token, 'utf8') : null;
    const login = identity.agentLogin;
    // a password login gets a session token once every check has passed (none is left unused)
    let issuedToken: string | undefined;
    let agentToken = login?.by === 'token' ? login.token : undefined;
    const peer: Peer = {
      userId: identity.userId,
      connectId: identity.connectId,
      role: identity.role,
      name: identity.name,
      avatar: identity.avatar,
      mchId: identity.mchId,
      platformId: identity.platformId,
      language: identity.language,
      saltKey: identity.keySession.saltKey,
      get agentToken(): string | undefined {
        return agentToken;
      },
      send(message: WireMessage): void {
        if (ws.readyState !== WebSocket.OPEN) return;
        try {
          ws.send(encodeFrame(message, userKey));
        } catch (error) {
          deps.onError(error);
        }
      },
      close(code: number, reason: string): void {
        ws.close(code, reason);
      },
    };
    const now = Date.now();
    if (identity.role === 'visitor') {
      const known = await ctx.store.chat.visitor(identity.userId);
      await ctx.store.chat.saveVisitor({
        clientId: identity.userId,
        name: identity.name,
        avatar: identity.avatar,
        language: identity.language,
        blacklisted: known?.blacklisted ?? false,
        banned: known?.banned ?? false,
        createdAt: known?.createdAt ?? now,
        lastSeen: now,
      });
    }
    if (!(await ctx.store.identity.bindKeySession(identity.keySession.saltKey, identity.userId))) throw identityRefused();
    if (identity.role === 'visitor' && (await ctx.store.chat.visitor(identity.userId))?.banned) {
      // the identity checks passed, so its calls answer 2003 (banned), not 4003; nothing is claimed
      refuse(peer, 'banned', '');
      ws.close(BANNED_CLOSE, 'banned');
      return undefined;
    }
    // claim on first use: the hash is stored before the welcome carries the secret; of two
    // connects claiming one unseen id at once, the conditional update lets one through
    if (identity.claimSecret !== undefined && !(await ctx.store.identity.claim(identity.userId, hashSecret(identity.claimSecret)))) {
      throw identityRefused();
    }
    const agentWasOffline = identity.role === 'agent' && !(await ctx.hub.isAgentOnline(identity.userId));
    if (login?.by === 'password') {
      issuedToken = await deps.agentTokens.issue(identity.userId.slice('agent:'.length));
      agentToken = issuedToken;
    }
    // the socket may have closed while the store answered: then nothing is registered
    if (ws.readyState !== WebSocket.OPEN) return undefined;
    const entry: Live = { peer, ws, lastFrame: now, work: Promise.resolve(), pending: 0 };
    live.add(entry);
    ctx.hub.add(peer);
    ws.on('close', () => {
      live.delete(entry);
      ctx.hub.remove(peer);
      if (peer.role === 'agent' && !ctx.hub.isHere(peer.userId)) {
        deps.sessions.agentsChanged();
        deps.agentPresence.went(peer.userId);
      }
    });
    ws.on('message', (data, isBinary) => {
      entry.lastFrame = Date.now();
      onFrame(entry, data, isBinary, userKey);
    });

    peer.send({
      type: T.Welcome,
      from: 'system',
      to: identity.userId,
      fp: randomUUID(),
      sm: Date.now(),
      createTime: Date.now(),
      dataContent: JSON.stringify({
        role: identity.role,
        userId: identity.userId,
        name: identity.name,
        ...(identity.claimSecret === undefined ? {} : { clientSecret: identity.claimSecret }),
        ...(issuedToken === undefined ? {} : { sessionToken: issuedToken }),
      }),
    });
    // the session's start runs before any frame of this socket (a text must find its session)
    enqueue(entry, () => welcomed(peer, identity, agentWasOffline));
    return entry;
  }

  /** After the welcome: an agent's presence and snapshot; a visitor's session, state and group. */
  async function welcomed(peer: Peer, identity: ConnectIdentity, agentWasOffline: boolean): Promise<void> {
    if (identity.role === 'agent') {
      deps.agentPresence.came(identity.userId);
      if (agentWasOffline) deps.sessions.agentsChanged();
      else peer.send(await deps.sessions.snapshotFor(identity.userId));
      return;
    }
    const v = { clientId: identity.userId, name: identity.name, avatar: identity.avatar, mchId: identity.mchId, platformId: identity.platformId, language: identity.language };
    if (identity.groupId !== '') await joinGroup(identity, v.name, v.avatar);
    if (!(await deps.sessions.hasAny(v))) await deps.sessions.start(v);
    else await deps.sessions.resumed(v, (message) => peer.send(message));
    // The service state (robot, queued, agent, ended) for a reloaded page or a new tab (docs/protocol.md).
    if (identity.groupId === '') await deps.sessions.sendState(peer);
  }

  async function joinGroup(identity: ConnectIdentity, name: string, avatar: string): Promise<void> {
    const group = await ctx.store.directory.group(identity.groupId);
    if (!group?.open) return;
    await ctx.store.directory.addMember({ groupId: group.groupId, clientId: identity.userId, name, avatar, role: 'member', joinedAt: Date.now() });
  }

  /**
   * Runs a connection's work one piece at a time, in arrival order: a sender's messages are
   * stored and delivered in the order it sent them. Past {@link MAX_PENDING_FRAMES} waiting, the
   * socket is not read until the backlog is down to {@link RESUME_PENDING_FRAMES}: nothing is
   * dropped, the sender waits.
   */
  function enqueue(entry: Live, work: () => Promise<void>): void {
    entry.pending += 1;
    if (entry.pending === MAX_PENDING_FRAMES) entry.ws.pause();
    entry.work = entry.work
      .then(work)
      .catch((error: unknown) => {
        // the store failed (the database away, say): nothing of this frame may be half done
        // without the client knowing; closing with 1011 makes it reconnect, gap-fill, and resend
        // what was not acknowledged (the fp keeps that exactly once)
        deps.onError(error);
        if (entry.ws.readyState === WebSocket.OPEN) entry.ws.close(SERVER_ERROR_CLOSE, 'server error');
      })
      .finally(() => {
        entry.pending -= 1;
        if (entry.pending === RESUME_PENDING_FRAMES && entry.ws.isPaused) entry.ws.resume();
      });
  }

  function onFrame(entry: Live, data: WebSocket.RawData, isBinary: boolean, userKey: Buffer | null): void {
    const { peer } = entry;
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
    const frame = isBinary && text.length === 0 ? undefined : decodeFrame(text, userKey);
    if (!frame) {
      refuse(peer, 'bad-frame', '');
      return;
    }
    // heartbeats are answered at once, whatever is waiting
    if (frame.type === T.Heartbeat) {
      peer.send({ type: T.HeartbeatReply, from: 'system', to: peer.userId, sm: Date.now(), dataContent: '{}' });
      return;
    }
    if (frame.type === T.AgentLogout) {
      enqueue(entry, () => logout(peer));
      return;
    }
    enqueue(entry, () => deps.messaging.handle(peer, frame));
  }

  /** Type 312: the agent logs out: its token is revoked, its visitors released at once. */
  async function logout(peer: Peer): Promise<void> {
    if (peer.role !== 'agent') {
      refuse(peer, 'not-allowed', '');
      return;
    }
    if (peer.agentToken !== undefined) await deps.agentTokens.revoke(peer.agentToken);
    deps.agentPresence.loggedOut(peer.userId);
    peer.close(1000, 'logged out');
  }

  const idleTimer = setInterval(() => {
    const limit = Date.now() - ctx.config.socketIdleMs;
    for (const entry of live) if (entry.lastFrame < limit) entry.ws.close(IDLE_CLOSE, 'idle timeout');
  }, Math.min(30_000, ctx.config.socketIdleMs));
  idleTimer.unref();

  return {
    connections: () => live.size,
    close: async () => {
      clearInterval(idleTimer);
      server.off('upgrade', onUpgrade);
      // 1012 service restart: clients reconnect at once (to another node behind a balancer)
      for (const entry of live) entry.ws.close(1012, 'service restart');
      await new Promise<void>((resolve) => {
        const deadline = setTimeout(() => {
          for (const entry of live) entry.ws.terminate();
          resolve();
        }, 1000);
        const check = (): void => {
          if (live.size === 0) {
            clearTimeout(deadline);
            resolve();
          } else setTimeout(check, 10);
        };
        check();
      });
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
