/**
 * Every check, in the order a run tries them (later checks reuse what earlier ones set up).
 * @module
 */

import type { Check } from '../types.js';
import { agentChecks } from './agent.js';
import { connectChecks } from './connect.js';
import { frameChecks } from './frames.js';
import { identityChecks } from './identity.js';
import { limitChecks } from './limits.js';
import { permitChecks } from './permit.js';
import { startupChecks } from './startup.js';
import { typingChecks } from './typing.js';
import { verifiedIdentityChecks } from './verified-identity.js';

/** The kit's checks, in run order. */
export const CHECKS: readonly Check[] = Object.freeze([
  ...startupChecks,
  ...permitChecks,
  ...connectChecks,
  ...identityChecks,
  ...verifiedIdentityChecks,
  ...frameChecks,
  ...limitChecks,
  ...agentChecks,
  // after the agent checks: they serve a conversation of their own (the agent is free again)
  ...typingChecks,
]);
