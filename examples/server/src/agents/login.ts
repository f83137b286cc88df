/**
 * Agent login at connect (`d = { role: "agent", account, password }`): the throttle first, then
 * the scrypt check (an unknown account is checked against a dummy hash, so timing does not tell
 * which accounts exist), then the throttle is told the outcome.
 *
 * The check is asynchronous, so attempts sent at once would all pass the throttle before the first
 * failure is counted. Hence at most one check per account runs at a time, and at most
 * `concurrencyPerAddress` (`AGENT_LOGIN_CONCURRENCY`, 16) per address (an office of agents
 * logging in together still can); an attempt beyond that is refused like a throttled one, without
 * a check.
 * @module
 */

import type { AgentAccount } from '../config.js';
import type { AgentDirectory } from './directory.js';
import { dummyHash, verifyPassword } from './password.js';
import type { AgentTokens } from './session-tokens.js';
import type { LoginGate } from './throttle.js';

/** The outcome of a login. */
export type LoginResult = { ok: true; agent: AgentAccount } | { ok: false; reason: 'unauthorized' | 'too many attempts' };

/** Checks agent credentials with throttling. */
export class AgentLogin {
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly agents: AgentDirectory,
    private readonly throttle: LoginGate,
    private readonly concurrencyPerAddress: number,
    private readonly tokens?: AgentTokens,
  ) {}

  /**
   * Tries a login with a session token (a desk that kept its login across a reload). Throttled
   * like a password: a wrong token counts as a failed login.
   */
  async loginWithToken(account: string, token: unknown, address: string): Promise<LoginResult> {
    if (!(await this.throttle.check(account, address)).allowed) return { ok: false, reason: 'too many attempts' };
    const agent = await this.agents.find(account);
    if (!agent || !(await this.tokens?.verify(account, token))) {
      await this.throttle.failed(account, address);
      return { ok: false, reason: 'unauthorized' };
    }
    await this.throttle.succeeded(account);
    return { ok: true, agent };
  }

  /** Tries a login from `address`. */
  async login(account: string, password: string, address: string): Promise<LoginResult> {
    const accountKey = `account:${account.toLowerCase()}`;
    const addressKey = `address:${address}`;
    const verdict = await this.throttle.check(account, address);
    if (!verdict.allowed || this.running(accountKey) >= 1 || this.running(addressKey) >= this.concurrencyPerAddress) {
      return { ok: false, reason: 'too many attempts' };
    }
    this.add(accountKey, 1);
    this.add(addressKey, 1);
    try {
      const agent = await this.agents.find(account);
      const matches = await verifyPassword(password, agent?.passwordHash ?? dummyHash());
      if (!matches || !agent || password === '') {
        await this.throttle.failed(account, address);
        return { ok: false, reason: 'unauthorized' };
      }
      await this.throttle.succeeded(account);
      return { ok: true, agent };
    } finally {
      this.add(accountKey, -1);
      this.add(addressKey, -1);
    }
  }

  private running(key: string): number {
    return this.inFlight.get(key) ?? 0;
  }

  private add(key: string, delta: number): void {
    const next = this.running(key) + delta;
    if (next <= 0) this.inFlight.delete(key);
    else this.inFlight.set(key, next);
  }
}
