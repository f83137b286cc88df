/**
 * Parameters of the load bench (`bench/load.ts`): argv first, then environment variables, then
 * defaults; every value is bounded and a bad one is a clear {@link UsageError}.
 * @module
 */

/** The parameters of one bench run. */
export interface LoadOptions {
  /** Visitor clients (SDK `ImClient`s). */
  visitors: number;
  /** Agent clients (SDK `ImClient`s with the agent role); accounts go to the server's `AGENTS`. */
  agents: number;
  /** Length of the measured window, ms. */
  durationMs: number;
  /** Text messages per visitor per second during the window. */
  rate: number;
  /** Handshakes (start + connect) in flight at once during the ramp. */
  rampConcurrency: number;
  /** `child`: the reference server runs in its own Node process; `inproc`: in the bench process. */
  server: 'child' | 'inproc';
  /** The server's AES switch (`AES_SWITCH`): frames are AES-ECB encrypted when on. */
  aes: boolean;
  /** Run the bare `ws` echo baseline after the SDK run. */
  baseline: boolean;
}

/** Hard bounds: the bench never exceeds them whatever it is asked. */
export const BOUNDS = Object.freeze({
  maxVisitors: 2000,
  maxAgents: 200,
  maxDurationS: 20,
  maxRate: 20,
  maxRampConcurrency: 500,
  /** The whole run (server start, ramp, window, drain, baseline, teardown) stops by this, ms. */
  totalBudgetMs: 60_000,
});

/** A parameter that cannot be used. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The command-line help. */
export const USAGE = `Usage: npx tsx bench/load.ts [options]

  -n, --visitors N     visitor clients (default 200, at most ${BOUNDS.maxVisitors})      env BENCH_VISITORS
      --agents A       agent clients (default N/20, at least 1, at most ${BOUNDS.maxAgents}) env BENCH_AGENTS
  -d, --duration S     measured window in seconds (default 10, at most ${BOUNDS.maxDurationS})  env BENCH_DURATION
      --rate R         messages per visitor per second (default 1, at most ${BOUNDS.maxRate})  env BENCH_RATE
      --ramp C         handshakes in flight during the ramp (default 50)      env BENCH_RAMP
      --server MODE    child (default) or inproc                              env BENCH_SERVER
      --aes on|off     the server's AES switch (default on)                   env BENCH_AES
      --no-baseline    skip the bare ws echo baseline
  -h, --help           this text

Everything runs on 127.0.0.1; the whole run stops by itself within ${BOUNDS.totalBudgetMs / 1000} s.`;

type Env = Readonly<Record<string, string | undefined>>;

const NAMES: Readonly<Record<string, string>> = {
  '-n': 'visitors',
  '--visitors': 'visitors',
  '--agents': 'agents',
  '-d': 'duration',
  '--duration': 'duration',
  '--rate': 'rate',
  '--ramp': 'ramp',
  '--server': 'server',
  '--aes': 'aes',
};

const ENV_NAMES: Readonly<Record<string, string>> = {
  visitors: 'BENCH_VISITORS',
  agents: 'BENCH_AGENTS',
  duration: 'BENCH_DURATION',
  rate: 'BENCH_RATE',
  ramp: 'BENCH_RAMP',
  server: 'BENCH_SERVER',
  aes: 'BENCH_AES',
};

function readArgv(argv: readonly string[]): { values: Map<string, string>; baseline: boolean; help: boolean } {
  const values = new Map<string, string>();
  let baseline = true;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (arg === '--no-baseline') {
      baseline = false;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const name = NAMES[flag];
    if (name === undefined) throw new UsageError(`Unknown argument "${arg}".`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') throw new UsageError(`${flag} needs a value.`);
    values.set(name, value);
  }
  return { values, baseline, help };
}

function number(raw: string, name: string, min: number, max: number, integer: boolean): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    throw new UsageError(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

/**
 * Reads the parameters.
 * @param argv - the arguments after the script name
 * @param env - the environment (`BENCH_*` variables)
 * @returns the options, or `'help'` when help was asked for
 * @throws UsageError for an unknown argument or a value out of bounds
 */
export function parseOptions(argv: readonly string[], env: Env): LoadOptions | 'help' {
  const { values, baseline, help } = readArgv(argv);
  if (help) return 'help';
  const raw = (name: string): string | undefined => {
    const fromArgv = values.get(name);
    if (fromArgv !== undefined) return fromArgv;
    const fromEnv = env[ENV_NAMES[name] ?? '']?.trim();
    return fromEnv === '' ? undefined : fromEnv;
  };
  const visitors = number(raw('visitors') ?? '200', 'visitors', 1, BOUNDS.maxVisitors, true);
  const agents = number(raw('agents') ?? String(Math.max(1, Math.floor(visitors / 20))), 'agents', 1, Math.min(BOUNDS.maxAgents, visitors), true);
  const durationS = number(raw('duration') ?? '10', 'duration', 1, BOUNDS.maxDurationS, false);
  const rate = number(raw('rate') ?? '1', 'rate', 0.1, BOUNDS.maxRate, false);
  const rampConcurrency = number(raw('ramp') ?? '50', 'ramp', 1, BOUNDS.maxRampConcurrency, true);
  const server = raw('server') ?? 'child';
  if (server !== 'child' && server !== 'inproc') throw new UsageError(`server must be "child" or "inproc", got "${server}".`);
  const aesRaw = (raw('aes') ?? 'on').toLowerCase();
  if (!['on', 'off', 'true', 'false', '1', '0'].includes(aesRaw)) throw new UsageError(`aes must be on or off, got "${aesRaw}".`);
  return {
    visitors,
    agents,
    durationMs: Math.round(durationS * 1000),
    rate,
    rampConcurrency,
    server,
    aes: ['on', 'true', '1'].includes(aesRaw),
    baseline,
  };
}
