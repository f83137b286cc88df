/**
 * The parent side of the bench's child processes: starts `child.ts` with the same Node and tsx
 * loader as this process, waits for it to listen, asks it for its figures, and closes it (killing
 * it by its own handle if it does not exit in time).
 * @module
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CHILD_CONFIG_VAR, isFromChild, type ChildMode, type FromChild, type ToChild } from './ipc.js';
import type { BenchServer, BenchServerStats } from './server.js';

/** A server running in a child process, seen through the same interface as an in-process one. */
export interface ChildServer extends Omit<BenchServer, 'stats'> {
  /** Figures since the last mark (asked over IPC). */
  stats(): Promise<BenchServerStats>;
  /** The child's process id. */
  pid: number;
}

const CHILD_ENTRY = fileURLToPath(new URL('./child.ts', import.meta.url));
const live = new Set<ChildProcess>();

/** Kills every child this module started that is still running (the bench's watchdog). */
export function killChildren(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

/**
 * Starts a child and resolves once it listens.
 * @param mode - `server` (the reference server) or `echo` (bare ws echo)
 * @param config - the server configuration environment (`server` mode)
 * @param timeoutMs - how long to wait for it to listen
 */
export function spawnChild(mode: ChildMode, config: Record<string, string>, timeoutMs: number): Promise<ChildServer> {
  // process.execArgv carries tsx's loader, so the child runs TypeScript as this process does.
  const child = spawn(process.execPath, [...process.execArgv, CHILD_ENTRY, `--${mode}`], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [CHILD_CONFIG_VAR]: JSON.stringify(config) },
  });
  live.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => live.delete(child));
  const waiting = new Map<number, (stats: BenchServerStats) => void>();
  let nextId = 1;
  const send = (message: ToChild): void => {
    if (child.connected) child.send(message);
  };

  return new Promise<ChildServer>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the ${mode} child did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the ${mode} child exited (code ${child.exitCode ?? 'none'}, signal ${child.signalCode ?? 'none'})`));
      for (const answer of waiting.values()) answer(deadStats());
      waiting.clear();
    });
    child.on('message', (message: unknown) => {
      if (!isFromChild(message)) return;
      handle(message);
    });
    function handle(message: FromChild): void {
      if (message.kind === 'failed') {
        clearTimeout(timer);
        reject(new Error(`the ${mode} child failed: ${message.message}`));
      } else if (message.kind === 'stats') {
        waiting.get(message.id)?.(message.stats);
        waiting.delete(message.id);
      } else {
        clearTimeout(timer);
        resolve({
          info: message.info,
          pid: child.pid ?? 0,
          mark: () => send({ cmd: 'mark' }),
          stats: () =>
            new Promise<BenchServerStats>((answer) => {
              if (!child.connected) return answer(deadStats());
              const id = nextId++;
              const late = setTimeout(() => {
                waiting.delete(id);
                answer(deadStats('the child did not answer within 5 s'));
              }, 5_000);
              waiting.set(id, (stats) => {
                clearTimeout(late);
                answer(stats);
              });
              send({ cmd: 'stats', id });
            }),
          close: async () => {
            send({ cmd: 'close' });
            const killer = setTimeout(() => child.kill('SIGKILL'), 6_000);
            await exited;
            clearTimeout(killer);
          },
        });
      }
    }
  });
}

function deadStats(why = 'the child process is gone'): BenchServerStats {
  return {
    wallMs: 0,
    cpuMs: 0,
    loopP50: Number.NaN,
    loopP99: Number.NaN,
    loopMax: Number.NaN,
    rssMb: 0,
    heapMb: 0,
    connections: 0,
    errors: 0,
    firstError: why,
  };
}
