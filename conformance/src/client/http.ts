/**
 * Permit calls over HTTP (protocol §2): the JSON envelope and the (enc) payload encoding.
 * @module
 */

import { ecb } from './crypto.js';

/** The envelope of every `/im` answer: `code === 0` is success. */
export interface Envelope<T = unknown> {
  /** 0 on success, anything else a failure whose `message` is user-facing. */
  code: number;
  /** The user-facing message. */
  message: string;
  /** The result. */
  data: T;
}

/** What {@link http} hands back: the HTTP status and the parsed JSON body. */
export interface HttpAnswer<T = unknown> {
  /** The HTTP status. */
  status: number;
  /** The body, parsed as JSON (an {@link Envelope} for `/im` calls). */
  body: Envelope<T>;
}

/** A request for {@link http}. */
export interface HttpRequest {
  /** GET unless a body is given (then POST). */
  method?: string;
  /** A body, sent as JSON. */
  body?: unknown;
  /** Extra headers (`accept-language` defaults to `zh`). */
  headers?: Record<string, string>;
  /** Abort after this many ms (default 15 000). */
  timeoutMs?: number;
}

/** The key session's parts that an (enc) call needs. */
export interface EncKeys {
  /** The 32 bytes of the decrypted user token. */
  userKey: Buffer;
  /** The key session's name, sent as `X-Salt-Key`. */
  saltKey: string;
}

/**
 * A GET or POST whose answer is JSON.
 * @param url - the full URL
 * @param init - method, JSON body, headers, timeout
 * @throws Error when the server cannot be reached, does not answer in time or answers something that is not JSON
 */
export async function http<T = unknown>(url: string, init: HttpRequest = {}): Promise<HttpAnswer<T>> {
  const headers: Record<string, string> = { 'accept-language': 'zh', ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      signal: AbortSignal.timeout(init.timeoutMs ?? 15_000),
      ...(body === undefined ? {} : { body }),
    });
    text = await response.text();
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new Error(`${init.method ?? (body === undefined ? 'GET' : 'POST')} ${new URL(url).pathname} failed: ${String(why)}`);
  }
  try {
    return { status: response.status, body: JSON.parse(text) as Envelope<T> };
  } catch {
    throw new Error(`HTTP ${response.status} from ${new URL(url).pathname} is not JSON: ${JSON.stringify(text.slice(0, 80))}`);
  }
}

/**
 * Whether `body` has the envelope's shape: a numeric `code`, a string `message` and a `data` key.
 * @param body - a parsed answer
 */
export function isEnvelope(body: unknown): body is Envelope {
  if (typeof body !== 'object' || body === null) return false;
  const e = body as Record<string, unknown>;
  return typeof e['code'] === 'number' && typeof e['message'] === 'string' && 'data' in e;
}

/**
 * The (enc) value of a payload: `encodeURIComponent(AES-ECB(userKey, JSON.stringify(payload)))`.
 * @param userKey - the key session's user key
 * @param payload - any JSON value
 */
export function encValue(userKey: Buffer, payload: unknown): string {
  return encodeURIComponent(ecb(userKey, JSON.stringify(payload)));
}

/**
 * An (enc) permit call (protocol §2): GET `?data=<value>` or POST `{"data":"<value>"}` to
 * `<baseUrl>/im/api/permit/<name>`, with `X-Salt-Key`.
 * @param baseUrl - the host root
 * @param keys - the key session (user key and salt key)
 * @param method - GET or POST, as the call is declared
 * @param name - the call's path under `/im/api/permit/`
 * @param payload - the payload, encrypted on the way
 * @returns the answer's envelope
 */
export async function enc<T = unknown>(baseUrl: string, keys: EncKeys, method: 'GET' | 'POST', name: string, payload: unknown): Promise<Envelope<T>> {
  const value = encValue(keys.userKey, payload);
  const headers = { 'x-salt-key': keys.saltKey };
  const url = `${baseUrl}/im/api/permit/${name}`;
  const result =
    method === 'GET' ? await http<T>(`${url}?data=${value}`, { headers }) : await http<T>(url, { method: 'POST', body: { data: value }, headers });
  return result.body;
}
