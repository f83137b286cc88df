/**
 * The agents' part of the configuration: the accounts of `AGENTS` with their merchants
 * (`AGENT_MERCHANTS`), the built-in demo account, and the desk sessions' lifetimes.
 * @module
 */

import { hashPassword, isPasswordHash } from './agents/password.js';
import { DEFAULT_AGENT_MERCHANT, parseAgentMerchants, type AgentMerchantsConfig } from './agents/merchants.js';
import { asConfigError, ConfigError, intVar, type EnvLike } from './env-vars.js';
import { isLoopbackHost } from './web-config.js';

/** One human agent account. */
export interface AgentAccount {
  /** Login name; the agent's user id is `agent:<account>`. */
  account: string;
  /** The scrypt hash of the password (`scrypt$N$r$p$salt$hash`, see `agents/password.ts`). */
  passwordHash: string;
  /** Display name. */
  name: string;
  /**
   * The merchants the agent works for (`AGENT_MERCHANTS`, the admin command; the demo merchant by
   * default): their queue, conversations, canned replies and past conversations, and no other's.
   */
  merchants: readonly string[];
}

/** Agent desk sessions. */
export interface AgentSessionConfig {
  /**
   * A session token (given in an agent's welcome, kept by the desk instead of the password) expires
   * this long after its last use (`AGENT_SESSION_TTL_MS`, default 12 h).
   */
  tokenTtlMs: number;
  /**
   * An agent whose last socket closed is given this long to come back (`AGENT_GRACE_MS`, default
   * 60 s) before its visitors are told it left and may queue for another agent.
   */
  graceMs: number;
}

/**
 * Parses `AGENTS`: comma-separated `account:password[:Display name]` entries, where `password`
 * is either the plain password (hashed here, at load) or a stored hash `scrypt$N$r$p$salt$hash`
 * (as printed by `npm run admin -- hash`).
 * @internal
 */
export function parseAgents(raw: string): AgentAccount[] {
  const agents: AgentAccount[] = [];
  for (const entry of raw.split(',')) {
    const trimmed = entry.trim();
    if (trimmed === '') continue;
    const [account = '', password = '', ...rest] = trimmed.split(':');
    if (!/^[A-Za-z0-9_.-]{1,32}$/.test(account) || password === '') {
      throw new ConfigError(
        `AGENTS entries are "account:password[:name]" (account of letters, digits, _ . -), got "${trimmed}"`,
      );
    }
    if (agents.some((a) => a.account === account)) {
      throw new ConfigError(`AGENTS names the account "${account}" twice`);
    }
    if (password.startsWith('scrypt$') && !isPasswordHash(password)) {
      throw new ConfigError(`AGENTS entry "${account}": "${password.slice(0, 12)}..." is not a valid scrypt$N$r$p$salt$hash`);
    }
    const passwordHash = isPasswordHash(password) ? password : hashPassword(password);
    agents.push({ account, passwordHash, name: rest.join(':').trim() || account, merchants: [DEFAULT_AGENT_MERCHANT] });
  }
  return agents;
}

/**
 * The accounts with their merchants from `AGENT_MERCHANTS`.
 * @throws ConfigError when it names an account that `AGENTS` does not (stored agents get theirs from the admin command)
 */
function withMerchants(agents: readonly AgentAccount[], config: AgentMerchantsConfig): AgentAccount[] {
  const unknown = Object.keys(config.byAccount).find((account) => !agents.some((a) => a.account === account));
  if (unknown !== undefined) {
    throw new ConfigError(`AGENT_MERCHANTS names "${unknown}", which AGENTS does not (set a stored agent's merchants with "agent merchants <account> <mchId>")`);
  }
  return agents.map((a) => ({ ...a, merchants: config.byAccount[a.account] ?? config.fallback }));
}

/**
 * The configured accounts (`AGENTS` with their `AGENT_MERCHANTS`), or the demo account when
 * `AGENTS` is unset (`demoAgent` tells which).
 * @throws ConfigError when `AGENTS` names no account or either variable is unusable
 * @internal
 */
export function readAgents(env: EnvLike): { agents: AgentAccount[]; demoAgent: boolean } {
  const agentsRaw = env['AGENTS']?.trim() ?? '';
  const listed = agentsRaw === '' ? [demoAgentAccount()] : parseAgents(agentsRaw);
  if (listed.length === 0) throw new ConfigError('AGENTS names no account');
  // `AGENT_MERCHANTS` (see `agents/merchants.ts`)
  const merchants = asConfigError(() => parseAgentMerchants(env['AGENT_MERCHANTS'] ?? ''));
  return { agents: withMerchants(listed, merchants), demoAgent: agentsRaw === '' };
}

/**
 * The desk sessions' lifetimes (`AGENT_SESSION_TTL_MS`, `AGENT_GRACE_MS`).
 * @internal
 */
export function readAgentSessions(env: EnvLike): AgentSessionConfig {
  return {
    tokenTtlMs: intVar(env, 'AGENT_SESSION_TTL_MS', 12 * 3_600_000, 60_000, 30 * 86_400_000),
    graceMs: intVar(env, 'AGENT_GRACE_MS', 60_000, 0, 86_400_000),
  };
}

/** The built-in demo agent's credentials, used only when no agent is configured and only on loopback. */
export const DEMO_CREDENTIALS = { account: 'demo', password: 'demo', name: 'Demo Agent' } as const;

let demoAgent: AgentAccount | undefined;
/** The built-in demo agent (hashed on first use). */
export function demoAgentAccount(): AgentAccount {
  demoAgent ??= { account: DEMO_CREDENTIALS.account, name: DEMO_CREDENTIALS.name, passwordHash: hashPassword(DEMO_CREDENTIALS.password), merchants: [DEFAULT_AGENT_MERCHANT] };
  return demoAgent;
}

/**
 * Refuses the demo account on anything but loopback: `demo:demo` is public knowledge.
 * @param config - the configuration's `demoAgent` and `host` (`ServerConfig`)
 * @throws ConfigError when the configuration uses the demo agent on another interface.
 */
export function checkDemoAgent(config: Readonly<{ demoAgent: boolean; host: string }>): void {
  if (config.demoAgent && !isLoopbackHost(config.host)) {
    throw new ConfigError(
      `the demo agent account (demo:demo) is only allowed when listening on loopback, but HOST is "${config.host}": ` +
        'set AGENTS (e.g. AGENTS=alice:<password>) or add an agent with "npm run admin -w @kefu-im/server -- agent add <account>"',
    );
  }
}
