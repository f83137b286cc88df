/**
 * Typed permit calls (spec §7, protocol §1-§2, docs/protocol.md §2-§4).
 * @module
 */
import type { ChatMessage, SuggestedQuestion } from '../messages/types.js';
import { ApiError } from './errors.js';
import { AWS_UPLOAD_PATH, isEnvelope, type HttpClient, type RequestOptions } from './http-client.js';
import type {
  ChunkInitQuery,
  ChunkInitResult,
  ChunkRef,
  ChunkUploadQuery,
  ChunkUploadResult,
  DepositCard,
  FaqCategory,
  GroupHistoryQuery,
  GroupInfo,
  GroupInfoQuery,
  GroupUser,
  GroupUsersQuery,
  HistoryQuery,
  MerchantInfo,
  MerchantQuery,
  MessagePage,
  OrderQuery,
  PlatformCheck,
  PublicConfig,
  QuestionAnswer,
  QuestionLikeQuery,
  QuestionQuery,
  ScoreInput,
  ScoreResult,
  TranslateOptions,
  TranslateResult,
  TriggerUpdateQuery,
  TriggerUpdateResult,
  UploadCallOptions,
  UploadedFile,
  UserTokenResult,
} from './types.js';

/** Path prefix of the permit calls (below `/im`). */
export const PERMIT_PATH = '/api/permit';
/** The translate path (host root). */
export const TRANSLATE_PATH = '/translate/google/translate';
/** The chunked-upload path prefix (host root). */
export const CHUNK_PATH = '/oss/unifiedOss/chunk';

const ENC: RequestOptions = { enc: true };

function invalid(call: string, what: string, data: unknown): ApiError {
  return new ApiError({ code: -1, message: `${call}: unexpected answer (${what}).`, data });
}

/** Copies an interface-typed payload into a query record. */
function asQuery<T extends object>(q: T): Record<string, string | number | boolean | undefined> {
  const out: Record<string, string | number | boolean | undefined> = {};
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
    else out[k] = JSON.stringify(v);
  }
  return out;
}

function fileName(file: Blob, name: string | undefined, fallback: string): string {
  if (name) return name;
  const own = (file as Blob & { name?: unknown }).name;
  return typeof own === 'string' && own !== '' ? own : fallback;
}

function normalizePage(data: unknown): MessagePage {
  const page = (typeof data === 'object' && data !== null ? data : {}) as Partial<MessagePage>;
  return { list: Array.isArray(page.list) ? page.list : [], hasMore: page.hasMore === true };
}

/**
 * Every permit call as a typed method. The `/im` calls resolve the envelope's `data` and reject
 * with `ApiError` (after the notice) as {@link HttpClient} does.
 *
 * The host-root calls (translate, uploads) are "accepted whatever their code" by the HTTP layer:
 * no notice is shown for them. These methods then resolve `data` when `code` is 0 and otherwise
 * reject with an `ApiError` carrying the server's code and message, so that the caller (the
 * uploader, the translate button) shows its own text.
 */
export class PermitApi {
  /** @param http - the HTTP client */
  constructor(private readonly http: HttpClient) {}

  /** `GET getServerTime`: the server time in ms. */
  async getServerTime(): Promise<number> {
    const data = await this.http.get<unknown>(`${PERMIT_PATH}/getServerTime`);
    const n = typeof data === 'string' && data.trim() !== '' ? Number(data) : data;
    if (typeof n !== 'number' || !Number.isFinite(n)) throw invalid('getServerTime', 'not a number', data);
    return n;
  }

  /**
   * `GET getAesKey?requestKey=R`: the obfuscated AES key (reveal it with `revealAesKey`).
   * @param requestKey - the start-up request key
   */
  async getAesKey(requestKey: string): Promise<string> {
    const data = await this.http.get<unknown>(`${PERMIT_PATH}/getAesKey`, { query: { requestKey } });
    if (typeof data !== 'string') throw invalid('getAesKey', 'not a string', data);
    return data;
  }

  /**
   * `GET getUserToken?requestKey=R`: the encrypted user token and the salt key.
   * @param requestKey - the start-up request key
   */
  async getUserToken(requestKey: string): Promise<UserTokenResult> {
    const data = await this.http.get<unknown>(`${PERMIT_PATH}/getUserToken`, { query: { requestKey } });
    const d = (typeof data === 'object' && data !== null ? data : {}) as Partial<Record<keyof UserTokenResult, unknown>>;
    if (typeof d.userToken !== 'string' || typeof d.saltKey !== 'string') throw invalid('getUserToken', 'userToken and saltKey expected', data);
    return { userToken: d.userToken, saltKey: d.saltKey };
  }

  /** `GET switchAES`: the AES switch (`true`, `1`, `'true'` and `'1'` mean on). */
  async switchAES(): Promise<boolean> {
    const data = await this.http.get<unknown>(`${PERMIT_PATH}/switchAES`);
    return data === true || data === 1 || data === 'true' || data === '1';
  }

  /** `GET /im/api/public/config`: base URL, socket URL, socket key and AES switch. */
  getPublicConfig(): Promise<PublicConfig> {
    return this.http.get<PublicConfig>('/api/public/config');
  }

  /**
   * `POST findMsgForCus` (enc): the visitor's history.
   * @param q - client, merchant, platform and the page window
   */
  async findMsgForCus(q: HistoryQuery): Promise<MessagePage> {
    return normalizePage(await this.http.post<unknown>(`${PERMIT_PATH}/findMsgForCus`, q, ENC));
  }

  /**
   * `POST markScore` (enc): rates the conversation.
   * @param q - client, merchant, platform, session, score and remark
   */
  markScore(q: ScoreInput): Promise<ScoreResult> {
    return this.http.post<ScoreResult>(`${PERMIT_PATH}/markScore`, q, ENC);
  }

  /**
   * `POST clientGroupMsgList` (enc): a group's history.
   * @param q - client, group and the page window
   */
  async clientGroupMsgList(q: GroupHistoryQuery): Promise<MessagePage> {
    return normalizePage(await this.http.post<unknown>(`${PERMIT_PATH}/clientGroupMsgList`, q, ENC));
  }

  /**
   * `GET getGroupInfo` (enc).
   * @param q - group and client
   */
  getGroupInfo(q: GroupInfoQuery): Promise<GroupInfo> {
    return this.http.get<GroupInfo>(`${PERMIT_PATH}/getGroupInfo`, { enc: true, query: asQuery(q) });
  }

  /**
   * `GET getGroupUserList` (enc).
   * @param q - the group
   */
  getGroupUserList(q: GroupUsersQuery): Promise<GroupUser[]> {
    return this.http.get<GroupUser[]>(`${PERMIT_PATH}/getGroupUserList`, { enc: true, query: asQuery(q) });
  }

  /**
   * `POST createMsg` (enc): stores a message (complaints, left messages, ...).
   * @param msg - at least `type`, `from`, `fp` and `dataContent`
   */
  createMsg(msg: ChatMessage): Promise<ChatMessage> {
    return this.http.post<ChatMessage>(`${PERMIT_PATH}/createMsg`, msg, ENC);
  }

  /**
   * `POST asConfig/categoryInfo` (enc): the FAQ categories.
   * @param q - merchant and platform
   */
  categoryInfo(q: MerchantQuery): Promise<FaqCategory[]> {
    return this.http.post<FaqCategory[]>(`${PERMIT_PATH}/asConfig/categoryInfo`, q, ENC);
  }

  /**
   * `GET checkPlatform` (enc).
   * @param q - merchant and platform
   */
  checkPlatform(q: MerchantQuery): Promise<PlatformCheck> {
    return this.http.get<PlatformCheck>(`${PERMIT_PATH}/checkPlatform`, { enc: true, query: asQuery(q) });
  }

  /**
   * `GET validateMchOrder` (enc): the deposit card of a merchant order.
   * @param q - merchant and order number
   */
  validateMchOrder(q: OrderQuery): Promise<DepositCard> {
    return this.http.get<DepositCard>(`${PERMIT_PATH}/validateMchOrder`, { enc: true, query: asQuery(q) });
  }

  /**
   * `GET decodeParam?param=...` (not encrypted): the raw entry string of a server-encoded link.
   * @param param - the `<param>` of `/kefu/<param>`
   */
  async decodeParam(param: string): Promise<string> {
    const data = await this.http.get<unknown>(`${PERMIT_PATH}/decodeParam`, { query: { param } });
    if (typeof data !== 'string') throw invalid('decodeParam', 'not a string', data);
    return data;
  }

  /**
   * `POST question` (enc): asks a suggested question; the robot answers in the conversation too.
   * @param q - client, merchant, platform and question id
   */
  question(q: QuestionQuery): Promise<QuestionAnswer> {
    return this.http.post<QuestionAnswer>(`${PERMIT_PATH}/question`, q, ENC);
  }

  /**
   * `POST questionLike` (enc): questions like a keyword (at most 20).
   * @param q - merchant, platform and keyword
   */
  questionLike(q: QuestionLikeQuery): Promise<SuggestedQuestion[]> {
    return this.http.post<SuggestedQuestion[]>(`${PERMIT_PATH}/questionLike`, q, ENC);
  }

  /**
   * `POST triggerUpdate` (enc): asks the server to re-send the session state and suggestions.
   * @param q - client, merchant and platform
   */
  triggerUpdate(q: TriggerUpdateQuery): Promise<TriggerUpdateResult> {
    return this.http.post<TriggerUpdateResult>(`${PERMIT_PATH}/triggerUpdate`, q, ENC);
  }

  /**
   * `POST getMerchantById` (enc): the merchant info.
   * @param q - merchant and platform
   */
  getMerchantById(q: MerchantQuery): Promise<MerchantInfo> {
    return this.http.post<MerchantInfo>(`${PERMIT_PATH}/getMerchantById`, q, ENC);
  }

  /**
   * `POST <call>` (enc) under the permit path, for calls without a method here: the agent desk's
   * `agent/...` calls (`DeskApi` in `@kefu-im/sdk/agent`), so that a visitor's bundle carries none.
   * @param call - the path below the permit path, e.g. `agent/cannedList`
   * @param payload - the payload (sent encrypted)
   * @returns the envelope's `data`
   */
  postEnc<T>(call: string, payload: unknown): Promise<T> {
    return this.http.post<T>(`${PERMIT_PATH}/${call}`, payload, ENC);
  }

  /**
   * `POST /translate/google/translate` (host root, 90 s): translates a text.
   * @param text - the text
   * @param target - the target locale (spec §9 default `en-US`)
   * @param opts - source language and abort signal
   */
  translate(text: string, target = 'en-US', opts: TranslateOptions = {}): Promise<TranslateResult> {
    const body = { text, target, ...(opts.source ? { source: opts.source } : {}) };
    return this.rootCall<TranslateResult>(TRANSLATE_PATH, body, opts.signal);
  }

  /**
   * `POST /oss/aws/upload` (host root, 90 s): uploads a whole file as the multipart field `file`.
   * @param file - the file
   * @param name - its name (default: the `File`'s own name, else `blob`)
   * @param opts - abort signal
   */
  uploadFile(file: Blob, name?: string, opts: UploadCallOptions = {}): Promise<UploadedFile> {
    const form = new FormData();
    form.append('file', file, fileName(file, name, 'blob'));
    return this.rootCall<UploadedFile>(AWS_UPLOAD_PATH, form, opts.signal);
  }

  /**
   * `POST chunk/init` (host root): starts or resumes a chunked upload.
   * @param q - file name, size, mime and proposed chunk size
   */
  chunkInit(q: ChunkInitQuery): Promise<ChunkInitResult> {
    return this.rootCall<ChunkInitResult>(`${CHUNK_PATH}/init`, q);
  }

  /**
   * `POST chunk/upload` (host root, multipart fields `uploadId`, `index`, `file`): one chunk.
   * @param q - upload id, chunk index and the chunk's bytes
   * @param opts - abort signal
   */
  chunkUpload(q: ChunkUploadQuery, opts: UploadCallOptions = {}): Promise<ChunkUploadResult> {
    const form = new FormData();
    form.append('uploadId', q.uploadId);
    form.append('index', String(q.index));
    form.append('file', q.chunk, `chunk-${q.index}`);
    return this.rootCall<ChunkUploadResult>(`${CHUNK_PATH}/upload`, form, opts.signal);
  }

  /**
   * `POST chunk/complete` (host root): assembles the chunks.
   * @param q - the upload id
   */
  chunkComplete(q: ChunkRef): Promise<UploadedFile> {
    return this.rootCall<UploadedFile>(`${CHUNK_PATH}/complete`, { uploadId: q.uploadId });
  }

  /**
   * `POST chunk/abort` (host root, multipart field `uploadId`): deletes the chunks.
   * @param q - the upload id
   */
  chunkAbort(q: ChunkRef): Promise<null> {
    const form = new FormData();
    form.append('uploadId', q.uploadId);
    return this.rootCall<null>(`${CHUNK_PATH}/abort`, form);
  }

  /** A host-root POST: resolves `data` for code 0, else rejects with the server's code and message. */
  private async rootCall<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    const answer = await this.http.post<unknown>(path, body, { root: true, ...(signal ? { signal } : {}) });
    if (!isEnvelope(answer)) throw invalid(path, 'no envelope', answer);
    if (answer.code === 0) return answer.data as T;
    const code = typeof answer.code === 'number' ? answer.code : -1;
    const message = typeof answer.message === 'string' && answer.message !== '' ? answer.message : `${path} failed (code ${String(answer.code)}).`;
    throw new ApiError({ code, message, data: answer.data });
  }
}
