/**
 * Agent login at connect (`d = { role: "agent", account, password }`): the throttle first, then
 * the scrypt check (an unknown account is checked against a dummy hash, so timing does not tell
 * which accounts exist). Every attempt is charged as a failure before the (asynchronous) check,
 * so that many attempts sent at once cannot all pass the throttle; a success then clears the
 * account and takes the charge back from the address.
 * @module
 */

import type { AgentAccount } from '../config.js';
import type { AgentDirectory } from './directory.js';
import { dummyHash, verifyPassword } from './password.js';
import type { LoginThrottle } from './throttle.js';

/** The outcome of a login. */
export type LoginResult = { ok: true; agent: AgentAccount } | { ok: false; reason: 'unauthorized' | 'too many attempts' };

/** Checks agent credentials with throttling. */
export class AgentLogin {
  constructor(
    private readonly agents: AgentDirectory,
    private readonly throttle: LoginThrottle,
  ) {}

  /** Tries a login from `address`. */
  async login(account: string, password: string, address: string): Promise<LoginResult> {
    const verdict = this.throttle.check(account, address);
    if (!verdict.allowed) return { ok: false, reason: 'too many attempts' };
    this.throttle.failed(account, address);
    const agent = this.agents.find(account);
    const matches = await verifyPassword(password, agent?.passwordHash ?? dummyHash());
    if (!matches || !agent || password === '') return { ok: false, reason: 'unauthorized' };
    this.throttle.succeeded(account);
    this.throttle.forgive(address);
    return { ok: true, agent };
  }
}
