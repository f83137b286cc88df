/**
 * `@kefu-im/sdk/agent`: the agent's side of the SDK (beyond the upstream spec): the queue and open
 * conversations, the agent history call with the catch-up after every reconnect, ended
 * conversations with the visitor's rating, the login kept across reloads as a session token,
 * accept, end, logout of this tab and of every session of the account; status and transfer, canned replies, past conversations, the visitor
 * context and the preview of a queued visitor. Visitors' apps never load it.
 * @packageDocumentation
 */
export { AgentDesk } from './agent-desk.js';
export type { AgentDeskOptions } from './agent-desk.js';
export { DeskQueue } from './queue.js';
export type { AgentDeskSnapshot } from './queue.js';
export { DeskConversations } from './conversations.js';
export type { ConversationRating, ConversationWindow, DeskConversation, DeskConversationsSnapshot, DeskConversationsDeps, TransferTarget } from './conversations.js';
export type { ConversationHistory } from './visitor-thread.js';
export { CANNED_SHORTCUT, cannedReplyProblem, DeskCanned, MAX_CANNED_TEXT, MAX_CANNED_TITLE, MAX_SUGGESTIONS } from './canned.js';
export type { CannedProblem, DeskCannedSnapshot } from './canned.js';
export { DeskPast } from './past.js';
export type { DeskPastSnapshot, PastSearch } from './past.js';
export { DeskPreview } from './preview.js';
export type { DeskPreviewSnapshot, PreviewedVisitor } from './preview.js';
export type { CannedReply, CannedReplyInput, CannedReplyUpdate, PastConversation, PastPage, PastQuery, QueuedQuery, Transcript, VisitorContext } from '../http/desk-types.js';
export { DeskContext } from './context.js';
export type { DeskContextSnapshot } from './context.js';
export { DeskLogin, LOGOUT_WAIT_MS } from './login.js';
export type { DeskLoginState } from './login.js';
export { DeskStatus, parseDeskAgents } from './status.js';
export type { AgentStatus, DeskAgent, DeskStatusState, TransferNote, TransferSender } from './status.js';
export { DeskTransfer, MAX_TRANSFER_NOTE, TRANSFER_WAIT_MS, TransferError } from './transfer.js';
export type { DeskTransferState, TransferOutcome, TransferRefusal } from './transfer.js';
export { DeskApi } from './desk-api.js';
export type { DeskCall, DeskCalls, DeskClient, DeskEvent } from './desk-client.js';
export { AGENT_SESSION_KEY, agentConnectData, clearAgentLogin, readAgentLogin, sessionTokenOf, writeAgentLogin } from './session-token.js';
export type { AgentLogin } from './session-token.js';
