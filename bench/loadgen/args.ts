/**
 * Parameters of the protocol-level load generator (`bench/loadgen.ts`): argv, bounded, with a
 * clear {@link UsageError} for a bad value.
 * @module
 */

/** A phase of a run. */
export type Phase = 'handshake' | 'chat' | 'idle';

/** The parameters of one run. */
export interface LoadgenOptions {
  /** An external server or balancer (`http://host:port`); empty: start the reference server. */
  url: string;
  /** Generator worker processes. */
  workers: number;
  /** Phases in order. */
  phases: Phase[];
  /** Handshake phase length, s. */
  handshakeSeconds: number;
  /** Connects in flight at once (all workers). */
  concurrency: number;
  /** Active chats (visitors) in the chat phase. */
  chats: number;
  /** Agents in the chat phase. */
  agents: number;
  /** Texts per visitor per second. */
  rate: number;
  /** Chat (and echo) window, s. */
  seconds: number;
  /** Idle sockets to open. */
  idle: number;
  /** How long to hold them, s. */
  holdSeconds: number;
  /** The longest ramp of a phase, s. */
  rampSeconds: number;
  /** RSA decryption of the started server. */
  rsa: 'native' | 'jsencrypt';
  /** The AES switch of the started server. */
  aes: boolean;
  /** The started server's SQLite: in memory, or a file in a temporary data directory (WAL; `SQLITE_SYNCHRONOUS` through `LOADGEN_SERVER_ENV`). */
  db: 'memory' | 'file';
  /** The whole run stops by itself after this, s. */
  maxSeconds: number;
}

/** A bad argument. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The help text. */
export const USAGE = `usage: npm run bench:server -- [options]
  --url URL            measure a running server or balancer (e.g. HAProxy in front of N nodes)
                       instead of starting the reference server; agents from LOADGEN_AGENTS
  --workers N          generator processes (default 2, max 8)
  --phases LIST        comma list of handshake,chat,idle (default all three, in that order)
  --handshake-seconds S  handshake phase length (default 5, max 60)
  --concurrency N      connects in flight (default 32, max 512)
  --chats N            active chats (default 1000, max 5000)    --agents N  (default 50, max 500)
  --rate R             texts per visitor per second (default 0.5, max 10)
  --seconds S          chat and echo window (default 10, max 60)
  --idle N             idle sockets (default 10000, max 30000)  --hold S  (default 10, max 120)
  --ramp S             longest ramp of a phase (default 90, max 300)
  --rsa native|jsencrypt  RSA decryption of the started server (default native)
  --aes on|off         AES switch of the started server (default on)
  --db memory|file     SQLite of the started server in memory (default) or a file (WAL; add
                       LOADGEN_SERVER_ENV="SQLITE_SYNCHRONOUS=normal" for checkpoint syncs)
  --max-seconds S      hard stop of the whole run (default 420, max 1200)
  --nodes N            1 only here: for a cluster, start it (npm run cluster -w @kefu-im/server with DATABASE_URL, REDIS_URL) and pass --url
env: LOADGEN_SERVER_ENV="NAME=value ..." overrides the started server's environment
     (raise new limits there); LOADGEN_AGENTS="account:password,..." with --url`;

function bounded(name: string, raw: string | undefined, min: number, max: number, integer = true): number {
  const value = Number(raw);
  if (raw === undefined || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new UsageError(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got "${raw ?? ''}"`);
  }
  return value;
}

/** Parses argv (without node and the script). */
export function parseArgs(argv: readonly string[]): LoadgenOptions {
  const o: LoadgenOptions = {
    url: '',
    workers: 2,
    phases: ['handshake', 'chat', 'idle'],
    handshakeSeconds: 5,
    concurrency: 32,
    chats: 1000,
    agents: 50,
    rate: 0.5,
    seconds: 10,
    idle: 10_000,
    holdSeconds: 10,
    rampSeconds: 90,
    rsa: 'native',
    aes: true,
    db: 'memory',
    maxSeconds: 420,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i] ?? '';
    const value = (): string => {
      const v = argv[i + 1];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      i += 1;
      return v;
    };
    switch (flag) {
      case '--url': {
        const url = value().replace(/\/+$/, '');
        if (!/^https?:\/\/[^/]+$/.test(url)) throw new UsageError(`--url must be http(s)://host[:port], got "${url}"`);
        o.url = url;
        break;
      }
      case '--workers': o.workers = bounded(flag, value(), 1, 8); break;
      case '--phases': {
        const phases = value().split(',').map((p) => p.trim());
        for (const p of phases) if (p !== 'handshake' && p !== 'chat' && p !== 'idle') throw new UsageError(`unknown phase "${p}"`);
        o.phases = phases as Phase[];
        break;
      }
      case '--handshake-seconds': o.handshakeSeconds = bounded(flag, value(), 1, 60); break;
      case '--concurrency': o.concurrency = bounded(flag, value(), 1, 512); break;
      case '--chats': o.chats = bounded(flag, value(), 1, 5000); break;
      case '--agents': o.agents = bounded(flag, value(), 1, 500); break;
      case '--rate': o.rate = bounded(flag, value(), 0.05, 10, false); break;
      case '--seconds': o.seconds = bounded(flag, value(), 1, 60); break;
      case '--idle': o.idle = bounded(flag, value(), 1, 30_000); break;
      case '--hold': o.holdSeconds = bounded(flag, value(), 1, 120); break;
      case '--ramp': o.rampSeconds = bounded(flag, value(), 5, 300); break;
      case '--max-seconds': o.maxSeconds = bounded(flag, value(), 10, 1200); break;
      case '--rsa': {
        const v = value();
        if (v !== 'native' && v !== 'jsencrypt') throw new UsageError('--rsa is native or jsencrypt');
        o.rsa = v;
        break;
      }
      case '--aes': {
        const v = value();
        if (v !== 'on' && v !== 'off') throw new UsageError('--aes is on or off');
        o.aes = v === 'on';
        break;
      }
      case '--db': {
        const v = value();
        if (v !== 'memory' && v !== 'file') throw new UsageError('--db is memory or file');
        o.db = v;
        break;
      }
      case '--nodes': {
        const n = bounded(flag, value(), 1, 16);
        if (n !== 1) throw new UsageError('--nodes above 1 is not started here: start the cluster (DATABASE_URL=... REDIS_URL=... npm run cluster -w @kefu-im/server) and pass --url of the balancer');
        break;
      }
      default:
        throw new UsageError(`unknown option "${flag}"`);
    }
  }
  return o;
}
