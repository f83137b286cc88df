/**
 * `createServer`: the whole reference server (HTTP API, socket, app, files) on one port.
 * Usable from tests with `port: 0` and an in-memory database or a temporary `dataDir`.
 * @module
 */

import { DeskControls } from './chat/desk-controls.js';
import { RoutingPolicy } from './services/routing.js';
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { AgentDirectory } from './agents/directory.js';
import { AgentLogin } from './agents/login.js';
import { AbsenceSweep } from './agents/absence-sweep.js';
import { AgentPresence } from './agents/presence.js';
import { AgentTokens } from './agents/session-tokens.js';
import { MessageClock } from './chat/clock.js';
import type { ChatContext } from './chat/context.js';
import { Hub } from './chat/hub.js';
import { Messaging } from './chat/messaging.js';
import { Sessions } from './chat/sessions.js';
import { checkDemoAgent, type ServerConfig } from './config.js';
import { rsaPrivateKey, type RsaPrivateKey } from './crypto.js';
import { registerAdminRoutes } from './http/admin-routes.js';
import { registerAppRoutes } from './http/app-routes.js';
import type { HttpDeps } from './http/deps.js';
import { saltKeyOf } from './http/enc.js';
import { trustProxyOf } from './http/client-address.js';
import { installErrorHandlers, rateLimitedError } from './http/errors.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { FileStore } from './http/files.js';
import { groupAliaser } from './identity/group-alias.js';
import { registerHealthRoutes } from './http/health-routes.js';
import { registerKeyRoutes } from './http/key-routes.js';
import { registerChatRoutes } from './http/permit-chat.js';
import { registerDeskRoutes } from './http/permit-desk.js';
import { registerDirectoryRoutes } from './http/permit-directory.js';
import { registerTranslateRoute } from './http/translate-route.js';
import { registerUploadRoutes } from './http/upload-routes.js';
import { socketKeyOf, type ServerKeys } from './keys.js';
import { sealingKeyOf } from './identity/merchant-secrets.js';
import type { Members } from './services/members.js';
import { demoEntryPath, seedDemoData } from './seed.js';
import { createServices } from './services/index.js';
import type { Retention } from './services/retention.js';
import type { Connection } from './socket/connection.js';
import { LiveConnections } from './socket/live-connections.js';
import { socketPlugin } from './socket/socket-plugin.js';
import { openStore, serverKeysOf } from './store/open-store.js';
import { nodeServices } from './cluster/node-services.js';
import type { Store } from './store/types.js';

/** A running server. */
export interface RunningServer {
  /** The fastify instance. */
  app: FastifyInstance;
  /** `http://host:port` (the host root; the SDK's `baseUrl`). */
  url: string;
  /** `ws://host:port/ws`. */
  socketUrl: string;
  /** The SDK option `socketKey`. */
  socketKey: string;
  /** The server's secrets. */
  keys: ServerKeys;
  /** Storage (tests may inspect it). */
  store: Store;
  /** The configuration in force. */
  config: ServerConfig;
  /** The demo visitor entry path (`/kefu/<param>`). */
  entryPath: string;
  /** Open socket connections. */
  connections(): number;
  /**
   * Retention (`RETENTION_DAYS`): it checks every `RETENTION_INTERVAL_MS` by itself; operators'
   * scripts and tests may check a period at once with `runOnce`.
   */
  retention: Retention;
  /** Verified identity (protocol §3b): whether the demo secret is in force, merchant secrets. */
  members: Members;
  /**
   * Drains and stops: `/readyz` answers 503, no new socket is accepted, every socket is closed
   * with 1012 (clients reconnect at once, through a balancer to another node), in-flight requests
   * finish, then the database closes.
   */
  close(): Promise<void>;
}

/** Options beyond the configuration. */
export interface CreateServerOptions {
  /** Reports unexpected errors; `console.error` by default. */
  onError?: (error: unknown) => void;
  /** The fetch used for the translate provider (tests). */
  fetch?: typeof fetch;
  /** Builds the RSA decryptor from the private key PEM: native by default ({@link rsaPrivateKey}); benches pass `rsaPrivateKeyJs` to compare. */
  rsaKey?: (privateKeyPem: string) => RsaPrivateKey;
  /** The clock of the agent login throttle (tests); `Date.now` by default. */
  now?: () => number;
  /**
   * The wall clock that stamps message times (`createTime`); `Date.now` by default. Tests offset it
   * to play a node whose clock is off: order and gap-fill use the store's `seq`, not this clock.
   */
  messageClock?: () => number;
}

const HOUSEKEEPING_MS = 10 * 60_000;
const STALE_UPLOAD_MS = 24 * 3_600_000;

/** Creates, starts and returns the server. */
export async function createServer(config: ServerConfig, options: CreateServerOptions = {}): Promise<RunningServer> {
  const onError = options.onError ?? ((error: unknown) => console.error('[kefu-server]', error));
  mkdirSync(config.dataDir, { recursive: true });
  const store = await openStore(config);
  const keys = await serverKeysOf(store, config.dataDir).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const filesDir = config.filesDir || join(config.dataDir, 'files');
  const files = new FileStore(filesDir, config.filesDir ? `${filesDir}-parts` : join(config.dataDir, 'parts'));
  await files.init();

  const clock = new MessageClock(await store.chat.maxCreateTime(), options.messageClock);
  const hub = new Hub();
  const node = await nodeServices(config, hub, onError, options.now).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  // agents added with the admin command replace the demo account
  const storedAgents = (await store.identity.agents()).length;
  if (config.demoAgent && storedAgents > 0) config = { ...config, agents: [], demoAgent: false };
  try {
    checkDemoAgent(config);
  } catch (error) {
    await node.close();
    await store.close();
    throw error;
  }
  const agents = new AgentDirectory(config.agents, store);
  const agentTokens = new AgentTokens(store, config.agentSessions.tokenTtlMs);
  const agentLogin = new AgentLogin(agents, node.loginThrottle, config.loginThrottle.concurrencyPerAddress, agentTokens);
  const ctx: ChatContext = { store, hub, clock, config, agents, groupAlias: await groupAliaser(store) };
  const agentList = await agents.list();
  if (config.seed) await seedDemoData(store, clock, agentList);
  const entryPath = demoEntryPath(agentList[0]?.account ?? 'demo');

  const limiter = node.limiter('socket', config.rate.socketMax, config.rate.socketWindowMs);
  const sessions = new Sessions(ctx, onError);
  // a dead node's agents expire from presence: queued visitors hear they wait with nobody online
  node.watchAgents(() => sessions.agentsChanged());
  const agentPresence = new AgentPresence(config.agentSessions.graceMs, { isOnline: (id) => hub.isAgentOnline(id), gone: (id) => sessions.agentGone(id), onError });
  // agents serving visitors but online nowhere (a dead node, a restart): their grace period runs here
  const absences = new AbsenceSweep({ store, hub, presence: agentPresence, claim: (key, ttlMs) => node.claim(key, ttlMs), graceMs: config.agentSessions.graceMs, onError });
  void absences.sweep();
  const services = createServices(ctx, sessions, files, Date.now, sealingKeyOf(config.identity.sealingKey, keys.privateKeyPem));
  const desk = new DeskControls(ctx, sessions);
  const routing = new RoutingPolicy({
    store,
    onlineAgents: () => hub.onlineAgents(),
    merchantsOf: (agentId) => agents.merchantsOf(agentId),
    config: config.routing,
    assigned: (s) => sessions.assigned(s),
    onError,
  });
  sessions.agentRoster = (online) => desk.roster(online);
  sessions.onRoutingChange = () => routing.trigger();
  const messaging = new Messaging(ctx, sessions, (peer) => limiter.hitAll([`id:${peer.userId}`, `t:${peer.saltKey}`], Date.now()), services, desk);

  const trustProxy = trustProxyOf(config.trustProxy);
  const app = Fastify({ logger: config.log, bodyLimit: 1024 * 1024, routerOptions: { maxParamLength: 256 }, forceCloseConnections: true, trustProxy: config.trustProxy.length > 0 ? trustProxy : false });
  let listenUrl = '';
  const baseUrl = (request?: FastifyRequest): string => {
    if (config.publicUrl !== '') return config.publicUrl;
    const host = request?.headers.host;
    if (typeof host === 'string' && /^[A-Za-z0-9.:[\]-]{1,255}$/.test(host)) return `${request?.protocol ?? 'http'}://${host}`;
    return listenUrl;
  };
  const deps: HttpDeps = { config, services, keys, baseUrl, limiter: node.limiter };

  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    try {
      done(null, text.trim() === '' ? {} : JSON.parse(text));
    } catch {
      done(null, { text });
    }
  });
  await app.register(rateLimit, {
    global: true,
    max: config.rate.httpMax,
    timeWindow: config.rate.httpWindowMs,
    // per client: a live salt key names the client; anything else counts against the address
    keyGenerator: async (request) => {
      const salt = saltKeyOf(request);
      return (await services.identity.knows(salt)) ? `salt:${salt}` : `ip:${request.ip}`;
    },
    allowList: (request) =>
      request.method === 'GET' && !/^\/(im|oss|translate|admin)\//.test(request.url),
    errorResponseBuilder: () => rateLimitedError(),
    // one allowance per client for the whole cluster
    // Redis down: HTTP goes on (the socket and login limits then count per node)
    ...(node.redis ? { redis: node.redis, nameSpace: `${config.clusterName}:http-rate:`, skipOnError: true } : {}),
  });
  // The API's answers (`/im/`) of 1 KiB and more go compressed to a client that accepts it (Brotli
  // at quality 4, else gzip): a history page of 20 messages is ~9.6 kB of JSON, ~2.5 kB compressed,
  // and reaches a phone on Slow 4G ~35 ms sooner (bench/README.md, ninth pass). The app's files
  // have their build's compressed copies and uploads are sent as stored; the key exchange's answers
  // are never compressed (key-routes.ts: key material does not share a compressed body). Request
  // bodies are taken as sent: no Content-Encoding is inflated, so no body grows past its limit.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/im/')) route.compress = false;
  });
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
    globalDecompression: false,
  });
  installSecurityHeaders(app, config);
  await app.register(multipart, { limits: { fileSize: config.upload.maxBytes, files: 1, fields: 10, fieldSize: 1024 } });
  const appBuilt = existsSync(join(config.appDir, 'index.html'));
  installErrorHandlers(app, onError, appBuilt ? (reply) => reply.header('cache-control', 'no-cache').sendFile('index.html', config.appDir) : undefined);

  let draining = false;
  registerHealthRoutes(app, { draining: () => draining, ping: () => store.ping() });
  registerKeyRoutes(app, deps);
  registerChatRoutes(app, deps);
  registerDirectoryRoutes(app, deps);
  registerDeskRoutes(app, deps);
  registerTranslateRoute(app, config, options.fetch);
  registerUploadRoutes(app, deps, files);
  registerAdminRoutes(app, deps);
  await registerAppRoutes(app, deps, files.filesDir, () => entryPath);
  // the socket endpoint: app.close() drains it (every socket closed with 1012) before the HTTP server closes
  const sockets = new LiveConnections<Connection>();
  await app.register(socketPlugin, { ctx, sessions, services, messaging, rsa: (options.rsaKey ?? rsaPrivateKey)(keys.privateKeyPem), secret: keys.secret, onError, trustProxy, agentLogin, agentTokens, agentPresence, limiter: node.limiter, socketSlots: node.socketSlots, live: sockets });

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address() as AddressInfo;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  listenUrl = `http://${shownHost}:${address.port}`;
  const url = config.publicUrl || listenUrl;

  const housekeeping = setInterval(() => {
    void (async () => {
      const now = Date.now();
      await services.identity.purgeUnused();
      await services.privacy.forgetOldDeletions();
      limiter.sweep(now);
      for (const upload of await services.uploads.stale(now - STALE_UPLOAD_MS)) {
        await files.deleteParts(upload.uploadId);
        await services.uploads.forget(upload.uploadId);
      }
    })().catch(onError);
  }, HOUSEKEEPING_MS);
  housekeeping.unref();
  const stopRetention = services.retention.start(onError);

  let closing: Promise<void> | undefined;
  return {
    app,
    url,
    socketUrl: `${url.replace(/^http/, 'ws')}/ws`,
    socketKey: socketKeyOf(keys),
    keys,
    store,
    config,
    entryPath,
    connections: () => sockets.size,
    retention: services.retention,
    members: services.members,
    close: () => {
      closing ??= (async () => {
        draining = true; // /readyz says 503 from now on
        clearInterval(housekeeping);
        await stopRetention();
        sessions.dispose();
        agentPresence.dispose();
        absences.dispose();
        await app.close(); // drains the sockets first (the socket plugin's preClose hook)
        await node.close();
        await store.close();
      })();
      return closing;
    },
  };
}
