/**
 * `@kefu-im/conformance`: checks any kefu-im server over HTTP and WebSocket against the protocol
 * (`docs/protocol.md`): the start-up key exchange, (enc) calls, connect, identity (§3a), frames,
 * acknowledgement, dedup by `fp`, history catch-up, refusals and limits, agents, and typing signals
 * (§5a).
 *
 * Run it as `npx kefu-im-conformance <baseUrl>`, or from code with {@link runConformance}. The
 * independent protocol client it speaks through is `@kefu-im/conformance/client`.
 * @module
 */

export { CHECKS } from './checks/index.js';
export { CheckContext, type PublicConfig, type Refusal, type Visitor } from './context.js';
export { DEFAULT_OPTIONS, resolveOptions, type AgentCredentials, type ConformanceOptions, type ResolvedOptions } from './options.js';
export { formatResult, formatSummary } from './report.js';
export { runConformance } from './run.js';
export { CheckFailure, CheckSkipped, ensure, show, type Check, type CheckResult, type CheckStatus, type ConformanceReport } from './types.js';
