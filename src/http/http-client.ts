/**
 * The HTTP client of spec §7/§8 and protocol §2, on the platform's `fetch` (or an injected one).
 * @module
 */
import { aesEcb, loadAesEcb } from '../crypto/load-aes-ecb.js';
import type { NoticeLevel } from '../events.js';
import type { NoticeKey } from '../i18n/locales/zh-notices.js';
import type { ImClientLimits } from '../options.js';
import { Disposables, type TimerProvider } from '../timers.js';
import { ApiError, RequestCancelledError, RequestTimeoutError } from './errors.js';

/** Base path of the permit calls. */
export const IM_BASE_PATH = '/im';
/** The aws upload path: its timeout notice is `videoTooLarge` (spec §8). */
export const AWS_UPLOAD_PATH = '/oss/aws/upload';

/** A query parameter value; `undefined` values are left out. */
export type QueryValue = string | number | boolean | undefined;

/** Options of one request. */
export interface RequestOptions {
  /** Query parameters (for an `enc` GET: the payload that is encrypted into `data`). */
  query?: Record<string, QueryValue>;
  /** (enc): send the payload as `encodeURIComponent(AES-ECB(userKey, JSON.stringify(payload)))`. */
  enc?: boolean;
  /**
   * The call lives at the host root instead of under `/im` (translate, uploads): the long timeout
   * applies and the answer is accepted whatever its `code` (the promise resolves the whole body).
   */
  root?: boolean;
  /** Timeout, ms; defaults to `requestTimeout`, or `longRequestTimeout` for root calls. 0 = none. */
  timeout?: number;
  /** Cancels the request: it then rejects with {@link RequestCancelledError} and no notice. */
  signal?: AbortSignal;
  /** `'any'`: accept the answer whatever its `code` and resolve the whole body (as root calls do). */
  accept?: 'any';
}

/** The response envelope of every `/im` answer (protocol §2). */
export interface ApiEnvelope<T = unknown> {
  /** 0 on success. */
  code: number;
  /** User-facing text of a failure. */
  message?: string;
  /** The answer. */
  data: T;
}

/** The key session as the HTTP client needs it. */
export interface HttpSession {
  /** Names the key session; sent as `X-Salt-Key` once known. */
  saltKey?: string;
  /** The user token (32 UTF-8 bytes): the AES-ECB key of (enc) calls. */
  userKey?: string;
}

/** Options of {@link HttpClient}. */
export interface HttpClientOptions {
  /** Host root, e.g. `https://im.example.com` (permit calls go to `<baseUrl>/im`). */
  baseUrl: string;
  /** The fetch function; `globalThis.fetch` (looked up at call time) by default. */
  fetch?: typeof fetch;
  /** Timer functions (timeouts, the delayed timeout notice, the 413 throttle clock). */
  timers: TimerProvider;
  /** The spec's timings. */
  limits: Pick<ImClientLimits, 'requestTimeout' | 'longRequestTimeout' | 'throttleNoticeInterval' | 'timeoutNoticeDelay'>;
  /** The current interface language, sent as `Accept-Language`. */
  getLanguage(): string;
  /** The key session: `saltKey` (sent as `X-Salt-Key`) and `userKey` (for (enc) calls). */
  getSession(): HttpSession;
  /** Shows a notice: the text of `key`, or `serverText` when the server sent one. */
  notify(key: NoticeKey, level: NoticeLevel, serverText?: string): void;
  /**
   * Says when a call may go: the client makes a call that speaks for the visitor, made while its
   * connect is under way, wait for the welcome that binds the key session (protocol §3a), within
   * a bound. Calls go at once without it, or when it returns nothing.
   * @param path - the call's path
   * @param opts - its options (the query names the visitor of some calls)
   */
  ready?(path: string, opts: RequestOptions): Promise<void> | undefined;
}

/**
 * Whether a value looks like the response envelope (an object with a `code`).
 * @internal
 */
export function isEnvelope(v: unknown): v is ApiEnvelope {
  return typeof v === 'object' && v !== null && 'code' in v;
}

function isBinary(v: unknown): v is Blob | ArrayBuffer | ArrayBufferView {
  return (typeof Blob !== 'undefined' && v instanceof Blob) || v instanceof ArrayBuffer || ArrayBuffer.isView(v);
}

async function binaryText(v: Blob | ArrayBuffer | ArrayBufferView): Promise<string> {
  if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return new TextDecoder().decode(v);
  return v.text();
}

/** Rejects as soon as `signal` aborts, with its reason. */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * The HTTP client. Rules (spec §7, §8; protocol §2):
 *
 * - Base `<baseUrl>/im`, or the host root for `root` calls. Timeout `requestTimeout` (50 s), or
 *   `longRequestTimeout` (90 s) for root calls; timers come from the injected `TimerProvider`.
 * - Headers `Accept-Language: <language>` and, once known, `X-Salt-Key: <saltKey>`.
 * - (enc): `value = encodeURIComponent(AES-ECB(userKey, JSON.stringify(payload)))`; a GET's query
 *   string is exactly `?data=<value>`, a POST's body is `{"data": value}`. FormData bodies are
 *   sent as they are (multipart, not encrypted).
 * - An envelope with `code === 0` resolves its `data`. Any other answer shows the server's
 *   `message` (or `requestFailed`) and rejects with {@link ApiError}. Root calls and
 *   `accept: 'any'` resolve the whole body whatever its `code`.
 * - A binary answer containing the text `code` is parsed as JSON and handled as an envelope.
 * - HTTP 413 shows `requestTooFrequent`, at most once per `throttleNoticeInterval` (3 s).
 * - An error whose message contains `timeout` shows `requestTimeout` (for the aws upload:
 *   `videoTooLarge`) after `timeoutNoticeDelay` (500 ms), and rejects with that error.
 * - A network failure shows `networkError` and rejects with the original error.
 * - A cancelled request rejects with {@link RequestCancelledError} and shows nothing.
 *   **Deviation:** the spec says a cancelled request "never settles"; rejecting with a
 *   distinguishable error leaves nothing pending, and the UI ignores that error.
 */
export class HttpClient {
  private readonly opts: HttpClientOptions;
  private readonly disposables: Disposables;
  private readonly inFlight = new Set<() => void>();
  private lastThrottleNotice: number | null = null;

  /** @param opts - see {@link HttpClientOptions} */
  constructor(opts: HttpClientOptions) {
    if (!opts || typeof opts.baseUrl !== 'string') throw new TypeError('HttpClient needs a baseUrl string.');
    this.opts = opts;
    this.disposables = new Disposables(opts.timers);
  }

  /**
   * A GET request.
   * @param path - path below the base (e.g. `/api/permit/getServerTime`)
   * @param opts - query, enc, root, timeout, signal
   * @returns the envelope's `data` (the whole body for root / `accept: 'any'` calls)
   */
  get<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('GET', path, undefined, opts);
  }

  /**
   * A POST request; a plain object body is sent as JSON, a FormData body as multipart.
   * @param path - path below the base
   * @param body - the payload
   * @param opts - query, enc, root, timeout, signal
   * @returns the envelope's `data` (the whole body for root / `accept: 'any'` calls)
   */
  post<T>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('POST', path, body, opts);
  }

  /** Cancels every request in flight (they reject with {@link RequestCancelledError}) and every pending notice timer. */
  destroy(): void {
    for (const cancel of [...this.inFlight]) cancel();
    this.disposables.dispose();
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body: unknown, opts: RequestOptions): Promise<T> {
    const root = opts.root === true;
    const acceptAny = root || opts.accept === 'any';
    if (opts.enc) await loadAesEcb(); // the cipher loads with the first encrypted call
    await this.opts.ready?.(path, opts);
    if (opts.signal?.aborted) throw new RequestCancelledError();
    const { url, payload } = this.prepare(method, path, body, opts);
    const headers: Record<string, string> = {};
    const language = this.opts.getLanguage();
    if (language) headers['Accept-Language'] = language;
    const { saltKey } = this.opts.getSession();
    if (saltKey) headers['X-Salt-Key'] = saltKey;

    const controller = new AbortController();
    let cancelled = false;
    const cancel = (): void => {
      cancelled = true;
      controller.abort(new RequestCancelledError());
    };
    const timeout = opts.timeout ?? (root ? this.opts.limits.longRequestTimeout : this.opts.limits.requestTimeout);
    const clearTimer = timeout > 0 ? this.disposables.timeout(() => controller.abort(new RequestTimeoutError(timeout)), timeout) : () => undefined;
    opts.signal?.addEventListener('abort', cancel, { once: true });
    this.inFlight.add(cancel);
    let status: number;
    let data: unknown;
    try {
      const f = this.opts.fetch ?? globalThis.fetch;
      if (typeof f !== 'function') throw new TypeError('No fetch function available: pass the fetch option.');
      const init: RequestInit = { method, headers, signal: controller.signal };
      if (payload !== undefined) {
        const json = isJsonBody(payload);
        if (json) {
          headers['content-type'] = 'application/json';
          headers['accept'] = 'application/json';
        }
        init.body = json ? (typeof payload === 'string' ? payload : JSON.stringify(payload)) : (payload as BodyInit);
      }
      const response = await raceSignal(f(url, init), controller.signal);
      status = response.status;
      data = await raceSignal(readBody(response, method), controller.signal);
    } catch (e) {
      throw this.failure(e, cancelled, path);
    } finally {
      clearTimer();
      opts.signal?.removeEventListener('abort', cancel);
      this.inFlight.delete(cancel);
    }
    return this.accept<T>(status, data, acceptAny);
  }

  /** Builds the URL and the body, encrypting (enc) payloads. */
  private prepare(method: 'GET' | 'POST', path: string, body: unknown, opts: RequestOptions): { url: string; payload: unknown } {
    const base = this.opts.baseUrl.replace(/\/+$/, '') + (opts.root ? '' : IM_BASE_PATH);
    let url = base + (path.startsWith('/') ? path : `/${path}`);
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    if (opts.enc && (method === 'GET' || !isForm)) {
      const { userKey } = this.opts.getSession();
      if (!userKey) throw new Error(`Cannot send the encrypted call ${path}: the user token is not loaded yet.`);
      const value = encodeURIComponent(aesEcb().aesEcbEncrypt(userKey, JSON.stringify(method === 'GET' ? (opts.query ?? {}) : (body ?? {}))));
      if (method === 'GET') return { url: `${url}${url.includes('?') ? '&' : '?'}data=${value}`, payload: undefined };
      url = appendQuery(url, opts.query);
      return { url, payload: { data: value } };
    }
    return { url: appendQuery(url, opts.query), payload: body };
  }

  /** Applies the envelope rules to a received response. */
  private async accept<T>(status: number, raw: unknown, acceptAny: boolean): Promise<T> {
    let body = raw;
    if (status === 413) {
      this.throttledNotice();
      throw new ApiError({ code: envelopeCode(body), message: 'Too many requests (HTTP 413)', data: body, status });
    }
    if (isBinary(body)) {
      const text = await binaryText(body);
      if (!text.includes('code')) {
        if (status >= 200 && status < 300) return body as T;
      } else {
        try {
          body = JSON.parse(text) as unknown;
        } catch {
          // an unparseable body falls through to the fallback notice below
        }
      }
    }
    if (acceptAny && (isEnvelope(body) || (status >= 200 && status < 300))) return body as T;
    if (status >= 200 && status < 300 && isEnvelope(body) && body.code === 0) return body.data as T;
    const message = isEnvelope(body) && typeof body.message === 'string' && body.message !== '' ? body.message : undefined;
    if (message === undefined) this.opts.notify('requestFailed', 'error');
    else this.opts.notify('requestFailed', 'error', message);
    throw new ApiError({
      code: envelopeCode(body),
      message: message ?? `Request failed (HTTP ${status})`,
      data: isEnvelope(body) ? body.data : body,
      status,
    });
  }

  /** Classifies a failure before any response: cancelled, timeout or network. */
  private failure(e: unknown, cancelled: boolean, path: string): unknown {
    if (cancelled || e instanceof RequestCancelledError) return new RequestCancelledError();
    const message = e instanceof Error ? e.message : String(e);
    if (message.toLowerCase().includes('timeout')) {
      const key: NoticeKey = path === AWS_UPLOAD_PATH ? 'videoTooLarge' : 'requestTimeout';
      this.disposables.timeout(() => this.opts.notify(key, 'error'), this.opts.limits.timeoutNoticeDelay);
    } else {
      this.opts.notify('networkError', 'error');
    }
    return e;
  }

  /** The 413 notice, at most once per `throttleNoticeInterval`. */
  private throttledNotice(): void {
    const now = this.opts.timers.now();
    if (this.lastThrottleNotice !== null && now - this.lastThrottleNotice < this.opts.limits.throttleNoticeInterval) return;
    this.lastThrottleNotice = now;
    this.opts.notify('requestTooFrequent', 'warning');
  }
}

/** The envelope's numeric `code`, or -1. */
function envelopeCode(body: unknown): number {
  return isEnvelope(body) && typeof body.code === 'number' ? body.code : -1;
}

/** `application/json` and `application/<x>+json` content types. */
const JSON_TYPE = /^application\/(?:[\w!#$%&*.^`~-]*\+)?json$/i;
/** Content types read as text (besides `text/*`). */
const TEXT_TYPES = new Set(['image/svg', 'application/xml', 'application/xhtml', 'application/html']);

/** Whether a request body is sent as JSON: plain objects, arrays, primitives and `toJSON` holders. */
function isJsonBody(v: unknown): boolean {
  if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) return true;
  if (typeof v !== 'object') return false;
  if (Array.isArray(v)) return true;
  if ((v as { buffer?: unknown }).buffer !== undefined) return false;
  if ((typeof FormData !== 'undefined' && v instanceof FormData) || (typeof URLSearchParams !== 'undefined' && v instanceof URLSearchParams)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || typeof (v as { toJSON?: unknown }).toJSON === 'function';
}

/**
 * Reads a response body by its content type: JSON (leniently: text that is not JSON stays text;
 * no content type counts as JSON), text, or a Blob for anything else. Undefined without a body.
 */
async function readBody(response: Response, method: string): Promise<unknown> {
  if (!response.body || method === 'HEAD' || [101, 204, 205, 304].includes(response.status)) return undefined;
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  if (type === '' || JSON_TYPE.test(type)) {
    const text = await response.text();
    try {
      return JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value)) as unknown;
    } catch {
      return text;
    }
  }
  if (TEXT_TYPES.has(type) || type.startsWith('text/')) return response.text();
  return response.blob();
}

/** Appends the defined query values (URL-encoded) to a URL. */
function appendQuery(url: string, query: Record<string, QueryValue> | undefined): string {
  if (!query) return url;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) search.append(k, String(v));
  const text = search.toString();
  if (!text) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${text}`;
}
