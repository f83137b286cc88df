/**
 * The agent desk's permit calls (`agent/...`, enc; docs/protocol.md §7 "Desk calls"): canned
 * replies, past conversations, a queued visitor's transcript, the visitor context, closing an
 * ended conversation. They live with
 * the desk, not in the root entry's `PermitApi`, so that a visitor's bundle carries none of them.
 * @module
 */
import type { PermitApi } from '../http/permit-api.js';
import type { CannedReply, CannedReplyInput, CannedReplyUpdate, PastPage, PastQuery, QueuedQuery, Transcript, VisitorContext } from '../http/desk-types.js';

/** The desk's calls over an agent client's permit API (`new DeskApi(client.api)`). */
export class DeskApi {
  /** @param api - the agent client's permit API */
  constructor(private readonly api: Pick<PermitApi, 'postEnc'>) {}

  /** `POST agent/cannedList` (enc, agents): a merchant's canned replies by shortcut. */
  agentCannedList(q: { mchId: string }): Promise<CannedReply[]> {
    return this.api.postEnc<CannedReply[]>('agent/cannedList', q);
  }

  /** `POST agent/cannedAdd` (enc, agents): adds a canned reply (1001 for a taken shortcut). */
  agentCannedAdd(q: CannedReplyInput): Promise<CannedReply> {
    return this.api.postEnc<CannedReply>('agent/cannedAdd', q);
  }

  /** `POST agent/cannedUpdate` (enc, agents): replaces a reply's title, text and shortcut (1001 for a taken shortcut, 1003 when unknown). */
  agentCannedUpdate(q: CannedReplyUpdate): Promise<CannedReply> {
    return this.api.postEnc<CannedReply>('agent/cannedUpdate', q);
  }

  /** `POST agent/cannedRemove` (enc, agents): removes a canned reply (1003 when unknown). */
  agentCannedRemove(q: { mchId: string; id: string }): Promise<boolean> {
    return this.api.postEnc<boolean>('agent/cannedRemove', q);
  }

  /** `POST agent/pastList` (enc, agents): a page of ended conversations, newest first. */
  async agentPastList(q: PastQuery): Promise<PastPage> {
    const data = await this.api.postEnc<unknown>('agent/pastList', q);
    const page = (typeof data === 'object' && data !== null ? data : {}) as Partial<PastPage>;
    return { list: Array.isArray(page.list) ? page.list : [], hasMore: page.hasMore === true };
  }

  /** `POST agent/pastOpen` (enc, agents): an ended conversation with all its messages. */
  agentPastOpen(q: { sessionId: string }): Promise<Transcript> {
    return this.api.postEnc<Transcript>('agent/pastOpen', q);
  }

  /** `POST agent/visitorContext` (enc, agents, assigned visitors only): the context panel's data. */
  agentVisitorContext(q: QueuedQuery): Promise<VisitorContext> {
    return this.api.postEnc<VisitorContext>('agent/visitorContext', q);
  }

  /**
   * `POST agent/closeConversation` (enc, agents): the agent closed an ended conversation of its
   * desk; the server lists it no more in the snapshots' `ended`.
   */
  agentCloseConversation(q: { sessionId: string }): Promise<boolean> {
    return this.api.postEnc<boolean>('agent/closeConversation', q);
  }

  /** `POST agent/queuedTranscript` (enc, agents of its merchant): what a queued visitor wrote in its current conversation, before accepting (4003 unless queued). */
  agentQueuedTranscript(q: QueuedQuery): Promise<Transcript> {
    return this.api.postEnc<Transcript>('agent/queuedTranscript', q);
  }
}
