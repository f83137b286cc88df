/**
 * `@kefu-im/sdk/agent`: the agent's side of the SDK (beyond the upstream spec): the queue and open
 * conversations, the agent history call with the catch-up after every reconnect, the login kept
 * across reloads as a session token, accept, end and logout. Visitors' apps never load it.
 * @packageDocumentation
 */
export { AgentDesk } from './agent-desk.js';
export type { AgentDeskOptions, AgentDeskSnapshot, ConversationHistory } from './agent-desk.js';
export { AGENT_SESSION_KEY, agentConnectData, clearAgentLogin, readAgentLogin, sessionTokenOf, writeAgentLogin } from './session-token.js';
export type { AgentLogin } from './session-token.js';
