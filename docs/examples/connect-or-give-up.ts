/**
 * Connects to a kefu-im server, or gives up after a bound: a script must not try forever when
 * the server is down. Exits 0 when connected, 1 when it gave up.
 *
 *   npx tsx connect-or-give-up.ts http://127.0.0.1:8080 '<socketKey from /im/api/public/config>'
 */
import { ImClient } from '@kefu-im/sdk';
import WebSocket from 'ws';

const [baseUrl = 'http://127.0.0.1:8080', socketKey = ''] = process.argv.slice(2);

const client = new ImClient({
  baseUrl,
  socketUrl: `${baseUrl.replace(/^http/, 'ws')}/ws`,
  socketKey,
  WebSocket,
  connectData: { role: 'visitor', mchId: 'M1001', platformId: 'P01' },
  // the bound: `failed` after 3 attempts in a row, 500 ms apart
  limits: { reconnectDelay: 500, maxReconnectAttempts: 3 },
});

/**
 * Opens the socket. Resolves once it is open; rejects once the connection snapshot shows `failed`
 * (`maxReconnectAttempts` attempts in a row failed) or `halted` (the server refused for good,
 * `haltReason` says why). Left alone, a failed client goes on trying (a page must never be
 * stranded): a script calls `destroy()` when this rejects.
 */
function connected(client: ImClient): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (): void => {
      const { state, failed, halted, haltReason, lastCloseCode } = client.connectionStore.getState();
      if (state === 'open') {
        stop();
        resolve();
      } else if (failed || halted) {
        stop();
        reject(new Error(`gave up (${haltReason ?? 'failed'}, last close code ${lastCloseCode ?? 'none'})`));
      }
    };
    const stop = client.connectionStore.subscribe(settle);
    client.connect();
  });
}

const started = Date.now();
let errors = 0;
client.on('error', () => errors++); // each failed attempt is an `error` event (source `connect` or `start`)

try {
  await connected(client);
  console.log('connected');
} catch (error) {
  console.log(`${(error as Error).message} after ${Date.now() - started} ms and ${errors} errors`);
  process.exitCode = 1;
} finally {
  client.destroy(); // no more attempts, no more errors
}
