/**
 * Prepares a conversation before its socket opens: reads the entry (path, query or the last
 * visit), applies its language, remembers it (`paramsData`), sets the connect data, and looks up
 * the merchant (for the page icon) or the group.
 * @module
 */
import { normalizeLanguage, type ImClient } from '@kefu-im/sdk';
import type { ConversationInfo } from '../chat/conversation.js';
import { arrivalParams, entryGroupId, readEntryQuery, resolveEntry, type EntryQuery } from '../env/entry.js';
import { languageChosen } from '../env/language-choice.js';
import type { AppRuntime } from './runtime.js';

/** Which conversation a route shows. */
export interface ConversationSpec {
  /** `/kefu/:id?` or `/group/:id?/:name?`. */
  route: 'kefu' | 'group';
  /** The path id (entry link or group id). */
  id?: string | undefined;
  /** The group name from the path. */
  name?: string | undefined;
}

/** The key of a conversation's client (one client per key). */
export function conversationKey(spec: ConversationSpec): string {
  return `${spec.route}:${spec.id ?? ''}`;
}

/**
 * The conversation of a page address, for the routes that show one.
 * @param pathname - `location.pathname`
 * @returns the spec, or null for the other routes
 */
export function conversationOfPath(pathname: string): ConversationSpec | null {
  const parts = pathname.split('/').filter((p) => p !== '').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  if (parts.length === 0) return { route: 'kefu' };
  if (parts[0] === 'kefu' && parts.length <= 2) return { route: 'kefu', id: parts[1] };
  if (parts[0] === 'group' && parts.length <= 3) return { route: 'group', id: parts[1], name: parts[2] };
  return null;
}

/** Why a conversation cannot be shown. */
export class BrokenLinkError extends Error {
  override name = 'BrokenLinkError';
}

/** The merchant's platform is switched off (`checkPlatform` answered `enabled: false`). */
export class PlatformDisabledError extends Error {
  override name = 'PlatformDisabledError';
}

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/**
 * Prepares the client of a conversation; call it before connecting.
 * @param client - the conversation's client (started or not)
 * @param runtime - the app runtime (its texts follow the entry's language)
 * @param spec - which conversation
 * @param search - `location.search`
 * @throws BrokenLinkError when the entry names no merchant (or the group does not exist)
 */
export async function prepareConversation(client: ImClient, runtime: AppRuntime, spec: ConversationSpec, search: string): Promise<ConversationInfo> {
  await client.start();
  const query: EntryQuery = readEntryQuery(search);
  const remembered = client.state.getState().paramsData;
  const rememberedEntry = text(remembered?.['entry']) || null;
  const entry = await resolveEntry(spec.route === 'kefu' ? spec.id : undefined, query, rememberedEntry, (p) => client.api.decodeParam(p)).catch(() => null);
  const mchId = entry?.mchId ?? '';
  const platformId = entry?.platformId ?? '';
  const groupId = spec.route === 'group' ? (spec.id ?? entryGroupId(entry ?? { groupId: '0' })) : entryGroupId(entry ?? { groupId: '0' });
  if (spec.route === 'kefu' && (mchId === '' || platformId === '') && !groupId) throw new BrokenLinkError('The entry link names no merchant');

  // The visitor's own pick (kept in the client state) wins over the entry link's language.
  const language = languageChosen() ? client.i18n.language : normalizeLanguage(text(entry?.language));
  if (language) await runtime.setLanguage(language, client).catch(() => undefined);

  if (entry && entry.source !== '') {
    client.state.setParamsData({ entry: entry.source, mchId, platformId, kefuId: entry.kefuId, groupId: entry.groupId, language: entry.language, isApp: query.isApp, cpay: query.cpay, json: query.json });
  }
  if (mchId !== '' && spec.route === 'kefu' && !groupId) {
    // Spec §3 checkPlatform: a switched-off platform shows a message instead of a chat. An
    // unknown platform or a failed check leaves the decision to the connect (as before).
    const check = await client.api.checkPlatform({ mchId, platformId }).catch(() => null);
    if (check && check.enabled === false) throw new PlatformDisabledError(`Platform ${String(platformId)} is not enabled`);
  }
  const name = text(query.json?.['name']).slice(0, 64);
  const arrival = arrivalParams(entry, query);
  client.setConnectData({
    role: 'visitor',
    ...(mchId !== '' ? { mchId, platformId } : {}),
    ...(entry?.kefuId !== undefined && entry.kefuId !== '' ? { kefuId: entry.kefuId } : {}),
    ...(groupId ? { groupId } : {}),
    language: client.i18n.language,
    ...(name ? { name } : {}),
    ...(Object.keys(arrival).length > 0 ? { entry: arrival } : {}),
  });

  const info: ConversationInfo = { kind: 'service', mchId, platformId, kefuId: entry?.kefuId ?? '', groupId, title: '', notice: '', query };
  if (mchId !== '') client.loadMerchantInfo().catch(() => undefined);
  if (!groupId) return info;
  // before the socket connects the key session speaks for nobody (protocol §3a): read the group's
  // public info here; the connect (d.groupId) joins the visitor to an open group
  const group = await client.api.getGroupInfo({ groupId }).catch(() => null);
  if (!group) throw new BrokenLinkError('The group does not exist');
  return { ...info, kind: group.kind === 'channel' ? 'channel' : 'group', title: spec.name || group.name, notice: group.notice ?? '' };
}

/** Each client's preparation, made once (start-up begins it; the conversation page takes it over). */
const preparations = new WeakMap<ImClient, Promise<ConversationInfo>>();
/** Each client's prepared conversation, once its preparation succeeded. */
const prepared = new WeakMap<ImClient, ConversationInfo>();

/**
 * The facts of a conversation whose preparation already succeeded, or undefined: a page mounted
 * after it (a first visit's chat) renders the chat at once, not a placeholder first.
 * @param client - the conversation's client
 */
export function preparedInfo(client: ImClient): ConversationInfo | undefined {
  return prepared.get(client);
}

/**
 * {@link prepareConversation}, once per client: the boot starts it right after start-up and opens
 * the socket as soon as it is done, while React renders the first screen; the conversation page
 * then gets the same promise instead of preparing (and calling the server) a second time.
 * @param client - the conversation's client
 * @param runtime - the app runtime
 * @param spec - which conversation
 * @param search - `location.search`
 */
export function preparedConversation(client: ImClient, runtime: AppRuntime, spec: ConversationSpec, search: string): Promise<ConversationInfo> {
  let preparation = preparations.get(client);
  if (!preparation) {
    preparation = prepareConversation(client, runtime, spec, search).then((info) => {
      prepared.set(client, info);
      return info;
    });
    preparations.set(client, preparation);
  }
  return preparation;
}
