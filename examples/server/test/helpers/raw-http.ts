/**
 * An HTTP request whose answer is read as sent: `node:http` decodes nothing, so a test sees the
 * `Content-Encoding` and the compressed bytes (`fetch` would inflate them).
 * @module
 */
import { request } from 'node:http';

/** An answer as sent: its status, headers and body bytes. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * Sends one request and reads its answer as sent.
 * @param url - the whole URL
 * @param init - method (GET by default), headers and body
 */
export function rawRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
