/**
 * The kit's options: what a run needs beyond the server's URL, with defaults that match the
 * reference server's demo data (merchant `M1001`, platform `P01`, agent `demo:demo`).
 * @module
 */

import type { CheckResult } from './types.js';

/** An agent account for the agent checks. */
export interface AgentCredentials {
  /** The account name (the agent's user id is `agent:<account>`). */
  account: string;
  /** Its password. */
  password: string;
}

/** What {@link runConformance} takes. */
export interface ConformanceOptions {
  /** The server's host root, e.g. `http://127.0.0.1:8080` (the kit adds `/im`). */
  baseUrl: string;
  /** The WebSocket endpoint; default: `socketUrl` of `GET /im/api/public/config`. */
  socketUrl?: string;
  /** `"<publicKey>,<secret>"`; default: `socketKey` of `GET /im/api/public/config`. */
  socketKey?: string;
  /** The merchant the visitors talk to (default `M1001`, the reference server's demo). */
  mchId?: string;
  /** Its platform (default `P01`). */
  platformId?: string;
  /** Agent credentials for the agent checks (default `demo:demo`); `null` skips them. */
  agent?: AgentCredentials | null;
  /**
   * The merchant's identity-token secret (protocol §3b), for the verified-identity checks; without
   * it they are skipped (the kit cannot sign a token for a foreign server).
   */
  merchantSecret?: string | null;
  /** How long to wait for any one answer or frame (ms, default 10 000). */
  timeoutMs?: number;
  /** How many texts the rate check sends at once (default 30; the server must refuse some). */
  burst?: number;
  /** The server's frame size limit in bytes (default 65 536); the oversize check sends more. */
  maxFrameBytes?: number;
  /** Called with each result as soon as its check ends (the CLI prints lines from it). */
  onResult?: (result: CheckResult) => void;
}

/** The defaults of {@link ConformanceOptions}, matching the reference server's demo. */
export const DEFAULT_OPTIONS = Object.freeze({
  mchId: 'M1001',
  platformId: 'P01',
  agent: Object.freeze({ account: 'demo', password: 'demo' }),
  timeoutMs: 10_000,
  burst: 30,
  maxFrameBytes: 65_536,
});

/** {@link ConformanceOptions} with every default applied. */
export interface ResolvedOptions {
  /** The host root, without a trailing slash. */
  baseUrl: string;
  /** The WebSocket endpoint, when given. */
  socketUrl: string | undefined;
  /** The socket key, when given. */
  socketKey: string | undefined;
  /** The merchant id. */
  mchId: string;
  /** The platform id. */
  platformId: string;
  /** Agent credentials, or null. */
  agent: AgentCredentials | null;
  /** The merchant's identity-token secret, or null (the verified-identity checks are skipped). */
  merchantSecret: string | null;
  /** Wait per answer (ms). */
  timeoutMs: number;
  /** Texts of the rate check. */
  burst: number;
  /** The frame size limit (bytes). */
  maxFrameBytes: number;
}

/**
 * Applies the defaults and checks the values.
 * @param options - what the caller gave
 * @throws Error when `baseUrl` is not an http(s) URL or a number is out of range
 */
export function resolveOptions(options: ConformanceOptions): ResolvedOptions {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new Error(`the base URL ${JSON.stringify(options.baseUrl)} is not a URL (e.g. http://127.0.0.1:8080)`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`the base URL must be http(s), got ${base.protocol}`);
  if (options.socketUrl !== undefined && !/^wss?:\/\//.test(options.socketUrl)) throw new Error('the socket URL must start with ws:// or wss://');
  const positive = (name: string, value: number | undefined, fallback: number): number => {
    const v = value ?? fallback;
    if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive integer, got ${String(value)}`);
    return v;
  };
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    socketUrl: options.socketUrl,
    socketKey: options.socketKey,
    mchId: options.mchId ?? DEFAULT_OPTIONS.mchId,
    platformId: options.platformId ?? DEFAULT_OPTIONS.platformId,
    agent: options.agent === undefined ? { ...DEFAULT_OPTIONS.agent } : options.agent,
    merchantSecret: options.merchantSecret ?? null,
    timeoutMs: positive('timeoutMs', options.timeoutMs, DEFAULT_OPTIONS.timeoutMs),
    burst: positive('burst', options.burst, DEFAULT_OPTIONS.burst),
    maxFrameBytes: positive('maxFrameBytes', options.maxFrameBytes, DEFAULT_OPTIONS.maxFrameBytes),
  };
}
