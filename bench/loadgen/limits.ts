/**
 * The configuration the load generator gives the server it starts: agent accounts and the rate
 * limits raised so that the run measures capacity, not refusals. The place to add new limit
 * variables: {@link RAISED_LIMITS} (defaults of the run) or `LOADGEN_SERVER_ENV` (per run).
 * @module
 */

/**
 * Server limits raised for a run. Every variable the server reads for a per-address, per-identity
 * or per-key-session limit belongs here with a value that the run cannot reach (a load generator
 * connects thousands of identities from one address, 127.0.0.1).
 */
export const RAISED_LIMITS: Readonly<Record<string, string>> = Object.freeze({
  RATE_SOCKET_MAX: '1000000',
  RATE_SOCKET_WINDOW_MS: '1000',
  RATE_HTTP_MAX: '1000000',
  RATE_HTTP_WINDOW_MS: '60000',
  RATE_KEY_SESSIONS_MAX: '1000000',
  RATE_CONNECTS_MAX: '1000000',
  // the agents log in at once from one address (16 by default: 21 of 50 were refused 4001)
  AGENT_LOGIN_CONCURRENCY: '1000',
});

/** Agent accounts of a run: `loadgen-agent-<i>` / `loadgen-pw-<i>`. */
export function agentAccounts(count: number): { account: string; password: string }[] {
  return Array.from({ length: count }, (_, i) => ({ account: `loadgen-agent-${i + 1}`, password: `loadgen-pw-${i + 1}` }));
}

/** Parses `AGENTS`-style `account:password[:name],...` (for `LOADGEN_AGENTS` with `--url`). */
export function parseAgentList(raw: string): { account: string; password: string }[] {
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [account = '', password = ''] = entry.split(':');
      if (account === '' || password === '') throw new Error(`LOADGEN_AGENTS entries are account:password, got "${entry}"`);
      return { account, password };
    });
}

/**
 * Parses `LOADGEN_SERVER_ENV`: whitespace-separated `NAME=value` pairs that override
 * {@link RAISED_LIMITS} and the rest of the run's server environment.
 */
export function parseServerEnv(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of raw.split(/\s+/)) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    if (eq <= 0 || !/^[A-Z][A-Z0-9_]*$/.test(pair.slice(0, eq))) throw new Error(`LOADGEN_SERVER_ENV entries are NAME=value, got "${pair}"`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** The whole environment for the server's `loadConfig`. */
export function serverEnv(agents: number, aes: boolean, extra: Record<string, string>): Record<string, string> {
  const accounts = agentAccounts(agents).map((a, i) => `${a.account}:${a.password}:Loadgen Agent ${i + 1}`);
  return { AGENTS: accounts.join(','), AES_SWITCH: aes ? 'true' : 'false', SEED: 'true', LOG: 'false', ...RAISED_LIMITS, ...extra };
}
