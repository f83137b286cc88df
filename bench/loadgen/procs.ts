/**
 * The coordinator's side of its child processes: starts a child (same Node, same tsx loader) with
 * its soft open-file limit raised to the hard limit (`ulimit -n`), waits for it to be ready, sends
 * it requests and waits for the answers, and kills every child it started when asked (watchdog).
 * @module
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isAnswer, isReady, type Answer } from './ipc.js';

/** A running child. */
export interface Child {
  /** Its process id. */
  pid: number;
  /** What it reported when ready (the server's address). */
  info: unknown;
  /** Sends a request and resolves with the answer (rejects on an error answer or a timeout). */
  request<T>(cmd: string, args?: unknown, timeoutMs?: number): Promise<T>;
  /** Asks it to exit and waits (kills it after 8 s). */
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();

/** Kills every child still running (SIGKILL). */
export function killAll(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

/** Raises the soft fd limit to the hard one, then runs Node with this process's loader flags. */
const RAISE_FD_LIMIT = 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"';

/**
 * Starts `entry` (relative to this folder) with `args` and `env`, resolves when it says ready.
 * @param name - for messages
 * @param nodeArgs - extra Node flags for the child (e.g. `--cpu-prof`)
 */
export function startChild(name: string, entry: string, args: string[], env: Record<string, string>, timeoutMs: number, nodeArgs: readonly string[] = []): Promise<Child> {
  const file = fileURLToPath(new URL(entry, import.meta.url));
  const child = spawn('/bin/sh', ['-c', RAISE_FD_LIMIT, 'sh', process.execPath, ...process.execArgv, ...nodeArgs, file, ...args], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  live.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => live.delete(child));
  const waiting = new Map<number, (answer: Answer) => void>();
  let nextId = 1;
  void exited.then(() => {
    for (const answer of waiting.values()) answer({ id: 0, ok: false, error: `${name} exited (code ${child.exitCode ?? 'none'}, signal ${child.signalCode ?? 'none'})` });
    waiting.clear();
  });

  return new Promise<Child>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before it was ready`));
    });
    child.on('message', (message: unknown) => {
      if (isAnswer(message)) {
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      } else if (isReady(message)) {
        clearTimeout(timer);
        resolve({
          pid: child.pid ?? 0,
          info: message.info,
          request: <T>(cmd: string, requestArgs?: unknown, requestTimeoutMs = 300_000) =>
            new Promise<T>((done, fail) => {
              if (!child.connected) return fail(new Error(`${name} is gone`));
              const id = nextId++;
              const late = setTimeout(() => {
                waiting.delete(id);
                fail(new Error(`${name} did not answer ${cmd} within ${requestTimeoutMs} ms`));
              }, requestTimeoutMs);
              waiting.set(id, (answer) => {
                clearTimeout(late);
                if (answer.ok) done(answer.result as T);
                else fail(new Error(`${name}: ${answer.error}`));
              });
              child.send({ id, cmd, args: requestArgs });
            }),
          stop: async () => {
            if (child.connected) child.send({ id: 0, cmd: 'exit' });
            const killer = setTimeout(() => child.kill('SIGKILL'), 8000);
            await exited;
            clearTimeout(killer);
          },
        });
      }
    });
  });
}
