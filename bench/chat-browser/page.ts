/**
 * The page of bench/chat-browser.ts: runs in Chromium, bundled with the built SDK (`dist/`), and
 * puts {@link PageApi} on `window.kefuBench[build]` (the build's name: several builds' bundles can share the page). One run at a time: {@link PageApi.open} a client (an
 * `ImClient`, or a bare `WebSocket` that only parses, or parses and sends one frame back per text),
 * let the bench's frame server push the burst, then {@link PageApi.finish} it.
 * @module
 */
import { ImClient, memoryStorage } from '@kefu-im/sdk';

/** Which client a run uses. */
export type RunKind = 'bare' | 'floor' | 'sdk';

/** What {@link PageApi.open} needs. */
export interface OpenOptions {
  kind: RunKind;
  /** The frame server's `ws://` URL. */
  url: string;
  /** Texts the burst holds. */
  frames: number;
  /** `sdk`: the key exchange answers with the AES switch on (`<origin>/aes`) or off (`<origin>/plain`). */
  aes: boolean;
  /** `sdk`: the RSA public key and secret (`socketKey`). */
  socketKey: string;
  /** `sdk`: the `tabs` option (`undefined`: the default, as the app). */
  tabs?: boolean;
}

/** The page's own figures of a run. */
export interface PageFigures {
  /** Frames the page handled. */
  seen: number;
  /** ms from the first frame handled to the last (the page's clock). */
  ms: number;
  /** `sdk`: messages in the store. */
  stored: number;
  /** `sdk`: store changes its reader saw. */
  reads: number;
  /** `document.visibilityState` and `document.hasFocus()` at the end. */
  visibility: string;
  focused: boolean;
}

/** `window.kefuBench`. */
export interface PageApi {
  /** Opens a client and resolves once its socket is open. */
  open(options: OpenOptions): Promise<void>;
  /** `sdk`: resolves once the welcome frame made the client `visitor`'s (a frame-ready conversation). */
  ready(visitor: string): Promise<void>;
  /** The run's figures; closes the socket (destroys the client). */
  finish(): PageFigures;
}

/** The build's name (esbuild `define`): several builds' pages share one window, each under its name. */
declare const __BUILD__: string;

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The run open now. */
let current: { finish(): PageFigures; ready(visitor: string): Promise<void> } | null = null;

/** A bare `WebSocket`: `JSON.parse` of each frame kept in a list; `floor`: + one frame sent back per text. */
async function openBare({ kind, url, frames }: OpenOptions): Promise<void> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const list: unknown[] = [];
  let [seen, t0, t1] = [0, 0, 0];
  ws.onmessage = (event: MessageEvent<string>) => {
    if (seen++ === 0) t0 = performance.now();
    const message = JSON.parse(event.data) as { fp: string; from: string; to: string; createTime: number };
    list.push(message);
    if (kind === 'floor') {
      ws.send(JSON.stringify({ type: 104, dataContent: message.fp, fp: crypto.randomUUID(), from: message.to, to: message.from, cm: message.createTime }));
    }
    if (seen === frames) {
      t1 = performance.now();
      // parse only: one frame to tell the server the burst is through
      if (kind === 'bare') ws.send('done');
    }
  };
  current = {
    ready: async () => undefined,
    finish() {
      ws.close();
      return { seen, ms: t1 - t0, stored: list.length, reads: 0, visibility: document.visibilityState, focused: document.hasFocus() };
    },
  };
}

/** An `ImClient` with the app's options (tabs, window, document, IndexedDB outbox), in memory storage. */
async function openSdk({ url, frames, aes, socketKey, tabs }: OpenOptions): Promise<void> {
  const client = new ImClient({
    baseUrl: `${location.origin}/${aes ? 'aes' : 'plain'}`,
    socketUrl: url,
    socketKey,
    storage: memoryStorage(),
    limits: { heartbeatInterval: 3_600_000 },
    ...(tabs === undefined ? {} : { tabs }),
  });
  await client.start();
  client.connect();
  while (client.connectionState !== 'open') await wait(5);
  // A React-like reader: every change, read the snapshot.
  let reads = 0;
  const unsubscribe = client.messages.subscribe(() => {
    reads += client.messages.getSnapshot().length > 0 ? 1 : 0;
  });
  let [seen, t0, t1] = [0, 0, 0];
  let counting = false;
  client.on('socket message', () => {
    if (!counting) return;
    if (seen++ === 0) t0 = performance.now();
    if (seen === frames) t1 = performance.now();
  });
  current = {
    async ready(visitor) {
      while (client.userId !== visitor) await wait(5);
      counting = true;
    },
    finish() {
      const figures = { seen, ms: t1 - t0, stored: client.messages.size, reads, visibility: document.visibilityState, focused: document.hasFocus() };
      unsubscribe();
      client.destroy();
      return figures;
    },
  };
}

const api: PageApi = {
  open: (options) => (options.kind === 'sdk' ? openSdk(options) : openBare(options)),
  ready: (visitor) => current?.ready(visitor) ?? Promise.reject(new Error('no run open')),
  finish() {
    if (!current) throw new Error('no run open');
    const figures = current.finish();
    current = null;
    return figures;
  },
};
const page = window as unknown as { kefuBench?: Record<string, PageApi> };
(page.kefuBench ??= {})[__BUILD__] = api;
