/**
 * Reading the page address (spec §2 "Page address reading"): the entry link after `/kefu/`
 * (or the `param` / `params` query) decodes into merchant, platform, agent, language and group;
 * the query parameters `param`, `isapp`, `json` and `cpay` are read.
 * @module
 */
import { decodeEntryLinkParam, decodeEntryParams, type EntryParams } from '@kefu-im/sdk/embed';

/** The query parameters the app reads. */
export interface EntryQuery {
  /** `param`: an entry link value when the path has none. */
  param: string | null;
  /** `params`: the route's own query parameter (spec §2), also an entry link value. */
  params: string | null;
  /** `isapp`: true when the page is opened inside the companion app. */
  isApp: boolean;
  /** `json`: extra data from the host page (a JSON object), e.g. `{"account":"..."}`. */
  json: Record<string, unknown> | null;
  /** `cpay`: a merchant order number to show as a deposit card. */
  cpay: string | null;
}

function text(value: string | null, max = 2048): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' || trimmed.length > max ? null : trimmed;
}

/**
 * Reads the query. Bad values are ignored: `json` that is not a JSON object gives `null`.
 * @param search - `location.search`
 */
export function readEntryQuery(search: string): EntryQuery {
  const q = new URLSearchParams(typeof search === 'string' ? search : '');
  let json: Record<string, unknown> | null = null;
  const rawJson = text(q.get('json'), 8192);
  if (rawJson !== null) {
    try {
      const parsed: unknown = JSON.parse(rawJson);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
    } catch {
      json = null;
    }
  }
  const isapp = (q.get('isapp') ?? '').trim().toLowerCase();
  return {
    param: text(q.get('param')),
    params: text(q.get('params')),
    isApp: isapp === '1' || isapp === 'true' || isapp === 'yes',
    json,
    cpay: text(q.get('cpay'), 128),
  };
}

const RAW = /^data[23]?:/;

/**
 * Turns an entry link value into the raw entry string (protocol §6): base64url of `data...`, a raw
 * `data...` string, or else an opaque value the server decodes (`decodeParam`).
 * @param value - the path segment or query value
 * @param decodeParam - the server call for opaque values
 */
export async function entryRaw(value: string, decodeParam: (param: string) => Promise<string>): Promise<string> {
  if (RAW.test(value)) return value;
  try {
    const raw = decodeEntryLinkParam(value);
    if (RAW.test(raw)) return raw;
  } catch {
    // not base64url: an opaque value
  }
  return decodeParam(value);
}

/** A resolved entry: the decoded parameters and where they came from. */
export interface ResolvedEntry extends EntryParams {
  /** The entry link value that was decoded (`''` when none was given). */
  source: string;
}

/**
 * Resolves the entry of a conversation page: the path id, else `param`, else `params`, else the
 * entry remembered from the last visit (`paramsData`).
 * @param id - the path segment after `/kefu/`
 * @param query - the query
 * @param remembered - the last entry value kept in the client state
 * @param decodeParam - the server call for opaque values
 */
export async function resolveEntry(
  id: string | undefined,
  query: EntryQuery,
  remembered: string | null,
  decodeParam: (param: string) => Promise<string>,
): Promise<ResolvedEntry> {
  const source = text(id ?? null) ?? query.param ?? query.params ?? remembered ?? '';
  if (source === '') return { ...decodeEntryParams(''), source };
  const raw = await entryRaw(source, decodeParam);
  return { ...decodeEntryParams(raw), source };
}

/** Whether an entry names a group (group id other than `0`/`'0'`/empty). */
export function entryGroupId(entry: Pick<EntryParams, 'groupId'>): string | null {
  const g = entry.groupId;
  if (g === 0 || g === '0' || g === '' || g === null || g === undefined) return null;
  return String(g);
}

/** The most parameters the page reports of its arrival (the reference server keeps as many). */
export const MAX_ARRIVAL_PARAMS = 16;
const ARRIVAL_NAME = /^[A-Za-z0-9_.-]{1,32}$/;

/**
 * What the visitor arrived with, for the agents' context panel (connect data `entry`, see
 * docs/protocol.md §5): the entry link's agent and language, whether it came from the app, the
 * order number of a deposit card (`cpay`), and the host page's `json` fields as `json.<name>`
 * (strings, numbers and booleans; at most {@link MAX_ARRIVAL_PARAMS} in all).
 * @param entry - the resolved entry (null when none resolved)
 * @param query - the page's query
 */
export function arrivalParams(entry: Pick<EntryParams, 'kefuId' | 'language'> | null, query: EntryQuery): Record<string, string> {
  const params: Record<string, string> = {};
  const put = (name: string, value: unknown): void => {
    if (Object.keys(params).length >= MAX_ARRIVAL_PARAMS || !ARRIVAL_NAME.test(name)) return;
    const text = typeof value === 'string' ? value.trim() : (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean' ? String(value) : '';
    if (text !== '') params[name] = text.slice(0, 256);
  };
  if (entry) {
    put('kefuId', entry.kefuId);
    if (entry.language !== 'no' && entry.language !== 0) put('language', entry.language);
  }
  if (query.isApp) put('isapp', '1');
  put('cpay', query.cpay);
  for (const [name, value] of Object.entries(query.json ?? {})) put(`json.${name}`, value);
  return params;
}
