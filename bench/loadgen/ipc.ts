/**
 * The messages between the load generator's coordinator and its child processes (generator
 * workers and the server under test), over Node's IPC channel: requests with an id and one
 * answer each.
 * @module
 */

/** The environment variable carrying the server configuration to the server child (JSON of env names). */
export const SERVER_CONFIG_VAR = 'LOADGEN_SERVER_CONFIG';

/** A request from the coordinator. */
export interface Request {
  /** Matches the answer. */
  id: number;
  /** What to do. */
  cmd: string;
  /** Its arguments (JSON). */
  args?: unknown;
}

/** The answer to one {@link Request}. */
export type Answer = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/** Sent once by a child when it is ready; `info` is what it serves (the server's address). */
export interface Ready {
  ready: true;
  info?: unknown;
}

/** Whether a value received over IPC is a {@link Request}. */
export function isRequest(value: unknown): value is Request {
  const v = value as { id?: unknown; cmd?: unknown } | null;
  return typeof v?.id === 'number' && typeof v.cmd === 'string';
}

/** Whether a value received over IPC is an {@link Answer}. */
export function isAnswer(value: unknown): value is Answer {
  const v = value as { id?: unknown; ok?: unknown } | null;
  return typeof v?.id === 'number' && typeof v.ok === 'boolean';
}

/** Whether a value received over IPC is a {@link Ready}. */
export function isReady(value: unknown): value is Ready {
  return (value as { ready?: unknown } | null)?.ready === true;
}

/**
 * Serves requests in a child: every request runs `handler`; its result or error goes back.
 * The child exits when the parent goes away.
 */
export function serveRequests(handler: (cmd: string, args: unknown) => Promise<unknown>): void {
  process.on('message', (message: unknown) => {
    if (!isRequest(message)) return;
    handler(message.cmd, message.args).then(
      (result) => process.send?.({ id: message.id, ok: true, result } satisfies Answer),
      (error: unknown) => process.send?.({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies Answer),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
