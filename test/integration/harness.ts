/**
 * Shared harness of the integration tests: SDK clients (from `src/`) wired to the real reference
 * server over loopback HTTP and WebSocket, with everything they emit recorded, and small helpers
 * (PNG bytes, waiting for a message).
 *
 * Nothing here mocks the server: the clients use Node's own `fetch` and the `ws` package.
 */
import { createDecipheriv, randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { WebSocket } from 'ws';
import { removeDir, startServer, tempDir } from '../../examples/server/test/helpers/start.js';
import {
  ImClient,
  memoryStorage,
  type ChatMessage,
  type ConnectionState,
  type ImClientLimits,
  type ImClientOptions,
  type Notice,
  type WebSocketConstructor,
} from '../../src/index.js';

/** What the tests need from a running reference server. */
export interface ServerEndpoints {
  url: string;
  socketUrl: string;
  socketKey: string;
}

/** The demo merchant and platform written by the server's seed (examples/server/src/seed.ts). */
export const DEMO = {
  mchId: 'M1001',
  platformId: 'P01',
  blacklistedClientId: 'demo-blacklisted',
} as const;

/** The connect data of a visitor of the demo merchant (no language: the client's own, zh). */
export const DEMO_VISITOR = { role: 'visitor', mchId: DEMO.mchId, platformId: DEMO.platformId } as const;

/** The agent accounts of the test servers (examples/server/test/helpers/start.ts `AGENTS`). */
export const ALICE = { role: 'agent', account: 'alice', password: 'secret1' } as const;

/** Short reconnects so that a dropped socket comes back within the suite's time budget. */
export const FAST_LIMITS: Partial<ImClientLimits> = { reconnectDelay: 50, maxReconnectAttempts: 200 };

/** The raw traffic of every socket made by {@link recordingWebSocket}'s constructor. */
export interface RawTraffic {
  /** Frames the client sent, as written on the wire. */
  sent: string[];
  /** Frames the client received, as they came off the wire. */
  received: string[];
  /** The close code of every socket, in order. */
  closeCodes: number[];
}

/** A `ws` WebSocket constructor that records the raw frames and close codes of its sockets. */
export function recordingWebSocket(): RawTraffic & { WebSocket: WebSocketConstructor } {
  const traffic: RawTraffic = { sent: [], received: [], closeCodes: [] };
  class Recording extends WebSocket {
    constructor(url: string) {
      super(url);
      const send = this.send.bind(this);
      Object.defineProperty(this, 'send', {
        value: (data: string) => {
          traffic.sent.push(data);
          send(data);
        },
      });
      this.addEventListener('message', (e) => traffic.received.push(typeof e.data === 'string' ? e.data : Buffer.from(e.data as ArrayBuffer).toString('utf8')));
      this.addEventListener('close', (e) => traffic.closeCodes.push(e.code));
    }
  }
  return Object.assign(traffic, { WebSocket: Recording as unknown as WebSocketConstructor });
}

/** A client with everything it emitted. */
export interface Recorded {
  client: ImClient;
  notices: Notice[];
  errors: { error: Error; source: string }[];
  states: ConnectionState[];
  frames: { message: ChatMessage; encrypted: boolean }[];
  logins: { reconnected: boolean }[];
}

/** Every client made through {@link Clients.make}; {@link Clients.destroyAll} ends them. */
export class Clients {
  private readonly made: ImClient[] = [];

  /**
   * A client of `server` (Node 20: `ws` for the socket, global fetch, no window or document).
   * @param server - the endpoints
   * @param options - connect data, a fixed `clientId` (written into a fresh memory storage), limits, ...
   */
  make(server: ServerEndpoints, options: Partial<ImClientOptions> & { clientId?: string } = {}): Recorded {
    const { clientId, ...rest } = options;
    const storage = rest.storage ?? memoryStorage();
    if (clientId !== undefined) storage.setItem('uuid', clientId);
    const client = new ImClient({
      baseUrl: server.url,
      socketUrl: server.socketUrl,
      socketKey: server.socketKey,
      WebSocket: WebSocket as unknown as WebSocketConstructor,
      window: null,
      document: null,
      ...rest,
      storage,
      limits: { ...FAST_LIMITS, ...rest.limits },
    });
    this.made.push(client);
    const rec: Recorded = { client, notices: [], errors: [], states: [], frames: [], logins: [] };
    client.on('notice', (n) => rec.notices.push(n));
    client.on('error', (e) => rec.errors.push(e));
    client.on('state', ({ newState }) => rec.states.push(newState));
    client.on('socket message', (f) => rec.frames.push(f));
    client.on('socket login', (l) => rec.logins.push(l));
    return rec;
  }

  /** Destroys every client made so far. */
  destroyAll(): void {
    for (const c of this.made.splice(0)) c.destroy();
  }
}

/** A reference server started in process for a test (`startServer` of the server's tests). */
export type TestServer = Awaited<ReturnType<typeof startServer>>;

/** What {@link sharedServer} starts, and what it checks at the end. */
export interface SharedServerOptions {
  /** Configuration overrides (port, data directory, ...). */
  config?: Parameters<typeof startServer>[0];
  /** Environment of the server (limits, grace periods, switches). */
  env?: Record<string, string>;
  /** True when the tests make the server report errors on purpose (a failing store): they are not checked. */
  allowErrors?: boolean;
}

/**
 * One reference server for the tests of the file, or of the `describe` block this is called in:
 * started before the first test and handed to `started`; after the last, closed, its data removed
 * and checked to have reported no unexpected error.
 * @param started - receives the server (`(s) => (server = s)`)
 * @param options - its configuration and environment
 */
export function sharedServer(started: (server: TestServer) => void, options: SharedServerOptions = {}): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer(options.config, options.env);
    started(server);
  });
  afterAll(async () => {
    if (!server) return;
    await server.close();
    removeDir(server.dataDir);
    if (!options.allowErrors) expect(server.errors).toEqual([]);
  });
}

/** A {@link Clients} whose clients are destroyed after each test (of the file or the `describe` block). */
export function clientsPerTest(): Clients {
  const clients = new Clients();
  afterEach(() => clients.destroyAll());
  return clients;
}

/** Servers a file starts, stops and starts again on SQLite files, with the clients of its tests. */
export interface RestartableServers {
  /** The data directory the servers share unless told another. */
  readonly dataDir: string;
  /** The clients of the file's tests. */
  readonly clients: Clients;
  /** Every server started so far (for servers started by other means too). */
  readonly running: TestServer[];
  /**
   * Starts a server on the SQLite file of a data directory.
   * @param where - `port` to come back where an earlier server ran; `dataDir` (default {@link RestartableServers.dataDir})
   */
  start(where?: { port?: number; dataDir?: string }): Promise<TestServer>;
}

/**
 * Servers for tests that stop and restart them on one data directory: after the last test the
 * clients are destroyed, every server started is closed and the directory removed.
 */
export function restartableServers(): RestartableServers {
  const dataDir = tempDir();
  const clients = new Clients();
  const running: TestServer[] = [];
  afterAll(async () => {
    clients.destroyAll();
    for (const s of running) await s.close();
    removeDir(dataDir);
  });
  return {
    dataDir,
    clients,
    running,
    async start(where = {}) {
      const server = await startServer({ memoryDb: false, dataDir, ...where });
      running.push(server);
      return server;
    },
  };
}

/** The port a server listens on. */
export function portOf(server: { url: string }): number {
  return Number(new URL(server.url).port);
}

/** The endpoints of a running server as a value of their own (they stay when the server is replaced on its port). */
export function endpointsFrom(server: ServerEndpoints): ServerEndpoints {
  return { url: server.url, socketUrl: server.socketUrl, socketKey: server.socketKey };
}

/** The endpoints of a server at `url` (a process, a balancer), read from its public config (`socketKey` empty when missing). */
export async function endpointsOf(url: string): Promise<ServerEndpoints> {
  const body = (await (await fetch(`${url}/im/api/public/config`)).json()) as { data?: { socketKey?: string } };
  return { url, socketUrl: `${url.replace(/^http/, 'ws')}/ws`, socketKey: body.data?.socketKey ?? '' };
}

/** A visitor of the demo merchant, started and connected (the socket is open and welcomed). */
export async function connectedVisitor(
  clients: Clients,
  server: ServerEndpoints,
  options: Partial<ImClientOptions> & { clientId?: string } = {},
): Promise<Recorded> {
  const rec = clients.make(server, { connectData: { ...DEMO_VISITOR, language: 'en' }, ...options });
  await open(rec);
  return rec;
}

/** An agent client (alice), started and connected. */
export async function connectedAgent(clients: Clients, server: ServerEndpoints, options: Partial<ImClientOptions> = {}): Promise<Recorded> {
  const rec = clients.make(server, { connectData: { ...ALICE }, ...options });
  await open(rec);
  return rec;
}

/** Starts (key exchange) and connects; resolves once the socket is open and the user id known. */
export async function open(rec: Recorded): Promise<void> {
  const result = await rec.client.start();
  expect(result.errors).toEqual([]);
  rec.client.connect();
  await waitUntil(() => {
    expect(rec.client.connectionState).toBe('open');
    expect(rec.client.userId).toBeDefined();
  });
}

/** `vi.waitFor` with the suite's defaults (short poll, bounded). */
export function waitUntil<T>(check: () => T, timeout = 5_000): Promise<T> {
  return vi.waitFor(check, { timeout, interval: 10 });
}

/** Waits for a decoded incoming frame that matches, looking at the frames already received too. */
export async function frame(rec: Recorded, match: (m: ChatMessage) => boolean, timeout = 5_000): Promise<ChatMessage> {
  return waitUntil(() => {
    const found = rec.frames.find((f) => match(f.message));
    expect(found, 'expected frame').toBeDefined();
    return (found as { message: ChatMessage }).message;
  }, timeout);
}

/** Parses a JSON `dataContent`. */
export function content<T>(m: ChatMessage): T {
  return JSON.parse(m.dataContent ?? 'null') as T;
}

/** True for a session event (type 300) named `event`. */
export function isEvent(event: string): (m: ChatMessage) => boolean {
  return (m) => m.type === 300 && typeof m.dataContent === 'string' && content<{ event?: string }>(m).event === event;
}

/**
 * Leaves a message (createMsg type 401, docs/protocol.md §3) for the demo merchant, as `visitor`.
 * @param visitor - the visitor's client (its id is the sender)
 * @param text - what it writes; the contact is `me@example.com`
 */
export function leaveMessage(visitor: ImClient, text: string): ReturnType<ImClient['api']['createMsg']> {
  return visitor.api.createMsg({
    type: 401,
    from: visitor.clientId,
    fp: randomUUID(),
    mchId: DEMO.mchId,
    platformId: DEMO.platformId,
    dataContent: JSON.stringify({ contact: 'me@example.com', content: text }),
  });
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A valid `size`×`size` PNG filled with one RGB colour (8-bit truecolour, no interlace).
 * @param rgb - the colour
 */
export function pngBytes(rgb: [number, number, number], size = 4): Uint8Array<ArrayBuffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  return new Uint8Array(png);
}

/** The bytes served at `url`. */
export async function download(url: string): Promise<{ status: number; bytes: Uint8Array; type: string | null }> {
  const res = await fetch(url);
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()), type: res.headers.get('content-type') };
}

/** AES-256-ECB/PKCS7 decryption with node:crypto (independent of the SDK's @noble/ciphers). */
export function ecbDecrypt(key: string, b64: string): string {
  const d = createDecipheriv('aes-256-ecb', Buffer.from(key, 'utf8'), null);
  return Buffer.concat([d.update(Buffer.from(b64, 'base64')), d.final()]).toString('utf8');
}
