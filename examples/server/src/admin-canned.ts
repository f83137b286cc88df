/**
 * The admin command's `canned` group: a merchant's canned replies (the rules are the service's,
 * `services/canned.ts`).
 *
 * - `canned add <mchId> <shortcut> --title <title> --text <text>`
 * - `canned update <mchId> <shortcut or id> [--title <title>] [--text <text>] [--shortcut <new shortcut>]`
 * - `canned list <mchId>`
 * - `canned remove <mchId> <shortcut or id>`
 * @module
 */

import { ApiError } from './http/envelope.js';
import { Canned } from './services/canned.js';
import type { Store } from './store/types.js';

/** The usage lines of the group. */
export const CANNED_USAGE = `  canned add <mchId> <shortcut> --title <title> --text <text>
  canned update <mchId> <shortcut or id> [--title <title>] [--text <text>] [--shortcut <new>]
  canned list <mchId>
  canned remove <mchId> <shortcut or id>`;

/**
 * Runs a `canned` command.
 * @param option - takes `--name value` out of `rest` (undefined when absent)
 * @param usage - builds the usage error of a bad command line
 * @returns the exit code.
 */
export async function cannedCommand(
  command: string | undefined,
  rest: string[],
  store: Store,
  out: (line: string) => void,
  option: (args: string[], name: string) => string | undefined,
  usage: (message: string) => Error,
): Promise<number> {
  const canned = new Canned(store);
  const title = option(rest, '--title');
  const text = option(rest, '--text');
  const shortcut = option(rest, '--shortcut');
  const [mchId = '', which = ''] = rest;
  if (mchId === '') throw usage('name the merchant by its mchId');
  if (command === 'list') {
    const replies = await canned.list(mchId);
    if (replies.length === 0) out(`no canned replies for merchant "${mchId}"`);
    for (const r of replies) out(`/${r.shortcut}\t${r.title}\t${r.text}\t${r.id}`);
    return 0;
  }
  if (command === 'add') {
    try {
      const reply = await canned.add({ mchId, shortcut: which, title: title ?? '', text: text ?? '' });
      out(`added /${reply.shortcut} for merchant "${mchId}" (${reply.id})`);
      return 0;
    } catch (error) {
      if (error instanceof ApiError) throw usage(error.message);
      throw error;
    }
  }
  if (command === 'update' || command === 'remove') {
    const found = (await canned.list(mchId)).find((r) => r.id === which || r.shortcut === which.replace(/^\//, ''));
    if (found === undefined) {
      out(`no canned reply "${which}" for merchant "${mchId}"`);
      return 1;
    }
    if (command === 'update') {
      if (title === undefined && text === undefined && shortcut === undefined) throw usage('say what changes: --title, --text or --shortcut');
      try {
        const reply = await canned.update(found.id, { mchId, title: title ?? found.title, text: text ?? found.text, shortcut: shortcut ?? found.shortcut });
        out(`updated /${reply.shortcut} of merchant "${mchId}"`);
        return 0;
      } catch (error) {
        if (error instanceof ApiError) throw usage(error.message);
        throw error;
      }
    }
    await canned.remove(mchId, found.id);
    out(`removed /${found.shortcut} of merchant "${mchId}"`);
    return 0;
  }
  throw usage(`unknown canned command "${command ?? ''}"`);
}
