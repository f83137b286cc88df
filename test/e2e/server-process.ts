/**
 * The reference server as a child process, for fault tests that must kill it the hard way
 * (`SIGKILL`: no close frames, no graceful shutdown) and start it again on the same port with the
 * same data directory. Also reads what the server stored, straight from its SQLite file.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { LOOPBACK_LIMITS } from '../../examples/server/test/helpers/start.js';

const SERVER_DIR = fileURLToPath(new URL('../../examples/server/', import.meta.url));

/** A free TCP port on loopback (asked of the OS, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A server child process. */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** When it printed that it listens (ms, `Date.now()`). */
  readonly readyAt: number;
  /** Kills it with SIGKILL and waits for the exit. */
  kill(): Promise<void>;
  /** Sends SIGTERM (a drain) and resolves with the exit code once it exited. */
  terminate(): Promise<number | null>;
  /** Everything it printed. */
  output(): string;
  /** Whether it has exited. */
  exited(): boolean;
}

/** How to start one. */
export interface ServerProcessOptions {
  /** The port (kept across restarts). */
  port: number;
  /** The data directory (kept across restarts). */
  dataDir: string;
  /** The built app. */
  appDir: string;
  /** Further environment variables. */
  env?: Record<string, string>;
  /** Run the compiled server (`dist/main.js`, as in production) instead of the TypeScript source. */
  compiled?: boolean;
}

/**
 * Starts the server (`examples/server/src/main.ts`, TypeScript loaded in-process by tsx's loader so
 * that SIGKILL reaches the server itself, not a wrapper; or the compiled `dist/main.js`) and
 * resolves once it listens.
 */
export function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const args = options.compiled ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '/tmp',
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      APP_DIR: options.appDir,
      SEED: 'true',
      LOG: 'false',
      // every test client shares 127.0.0.1: raise the per-address limits, keep the others
      ...LOOPBACK_LIMITS,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exitCode = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const exited = exitCode.then(() => undefined);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start within 60 s:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (/listening on/.test(output)) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.on('data', (more: Buffer) => {
          output += more.toString('utf8');
        });
        resolve({
          url: `http://127.0.0.1:${options.port}`,
          readyAt: Date.now(),
          kill: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
            await exited;
          },
          terminate: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exitCode;
          },
          output: () => output,
          exited: () => child.exitCode !== null || child.signalCode !== null,
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
}

/** One stored chat text of a visitor, as the server's database holds it. */
export interface StoredText {
  fp: string;
  text: string;
  createTime: number;
}

/**
 * The visitor-sent texts (type 100) the server stored whose content starts with `prefix`, in the
 * order the server stored them.
 * @param dataDir - the server's data directory
 * @param prefix - a prefix unique to the test
 */
export function storedTexts(dataDir: string, prefix: string): StoredText[] {
  const db = new Database(`${dataDir}/kefu.db`, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare('SELECT fp, data_content AS text, create_time AS createTime FROM messages WHERE type = 100 AND data_content LIKE ? ORDER BY id')
      .all(`${prefix}%`) as StoredText[];
    return rows;
  } finally {
    db.close();
  }
}
