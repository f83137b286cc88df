/**
 * Debian's Chromium driven over a bare DevTools pipe (`--remote-debugging-pipe`), for
 * bench/chat-browser.ts. Not playwright: playwright enables the `Network` domain on every page it
 * knows, and with it Chromium sends a DevTools event with the payload of every WebSocket frame
 * received and sent (two per text here) to the driver, which parses them: an instrumentation cost
 * per frame that a visitor's page does not have. Only `Runtime`, `Page`, `Emulation`,
 * `Performance` and `Profiler` are used here, none of which reports per frame.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { BARE_ARGS } from '../../test/e2e/chromium-args.js';

/**
 * The flags: headless, and those of the e2e harness for a bare Chromium (test/e2e/chromium-args.ts),
 * among them no address-bar popup: Chromium 156 preloads it (a WebUI page in a renderer of its own)
 * for each new browser context, and on this 2-core machine that renderer took ~0.6-1 s of CPU
 * during a phone's first visit, beside the page measured. A phone's browser does no such work.
 */
const FLAGS = ['--headless', ...BARE_ARGS];

/** A DevTools message from the browser. */
interface Reply {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** A running Chromium and its DevTools pipe. */
export interface Chromium {
  /** The browser's version (`Browser.getVersion` product). */
  version: string;
  /** Sends a DevTools command (to a page's session when `sessionId` is given); resolves with its result. */
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<T>;
  /** Opens `url` in a new page and attaches to it; resolves with the session id. */
  open(url: string): Promise<string>;
  /** Evaluates `expression` in the page (awaiting a promise); resolves with its value (JSON). */
  evaluate<T>(sessionId: string, expression: string): Promise<T>;
  /** Closes the browser (and kills it if it does not exit within 5 s). */
  close(): Promise<void>;
}

/**
 * Launches Chromium with a DevTools pipe.
 * @param executable - the browser (`/usr/bin/chromium`)
 * @param userDataDir - an empty directory for its profile
 * @param niced - run it under `nice -n -15` (the caller may raise priorities)
 */
export async function launchChromium(executable: string, userDataDir: string, niced: boolean): Promise<Chromium> {
  const args = [...FLAGS, '--remote-debugging-pipe', `--user-data-dir=${userDataDir}`, 'about:blank'];
  const child: ChildProcess = niced
    ? spawn('nice', ['-n', '-15', executable, ...args], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] })
    : spawn(executable, args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  let next = 0;
  const waiting = new Map<number, (reply: Reply) => void>();
  let pending = '';
  fromBrowser.setEncoding('utf8');
  fromBrowser.on('data', (chunk: string) => {
    const parts = (pending + chunk).split('\0');
    pending = parts.pop() ?? '';
    for (const part of parts) {
      const reply = JSON.parse(part) as Reply;
      if (reply.id !== undefined) {
        waiting.get(reply.id)?.(reply);
        waiting.delete(reply.id);
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const send = <T>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, (reply) => (reply.error ? reject(new Error(`${method}: ${reply.error.message}`)) : resolve(reply.result as T)));
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  const { product } = await send<{ product: string }>('Browser.getVersion');
  return {
    version: product,
    send,
    async open(url) {
      const { targetId } = await send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
      await send('Page.enable', {}, sessionId);
      // a headless page has no window focus of its own: emulated, as playwright does
      await send('Emulation.setFocusEmulationEnabled', { enabled: true }, sessionId);
      await send('Page.bringToFront', {}, sessionId);
      await send('Page.navigate', { url }, sessionId);
      return sessionId;
    },
    async evaluate<T>(sessionId: string, expression: string): Promise<T> {
      const { result, exceptionDetails } = await send<{ result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
        'Runtime.evaluate',
        { expression, awaitPromise: true, returnByValue: true },
        sessionId,
      );
      if (exceptionDetails) throw new Error(`page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
      return result.value as T;
    },
    async close() {
      await send('Browser.close').catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
