/**
 * The admin command's verified-identity commands (protocol §3b; the rules are the service's,
 * `services/members.ts`):
 *
 * - `merchant secret add <mchId>`: a new random secret for the merchant (or the first line of stdin
 *   with `--stdin`), kept in the store sealed with AES-256-GCM under the sealing key
 *   (`MERCHANT_SECRETS_KEY`, or derived from the server keys); printed once, to hand to the
 *   merchant's backend. Several secrets of one merchant are all valid: add the new one, switch the
 *   backend, then remove the old one (rotation).
 * - `merchant secret list [<mchId>]`: ids and dates, never the secrets;
 * - `merchant secret remove <mchId> <secretId>`;
 * - `member token <mchId> <sub> [--ttl <seconds>] [--name <name>]`: a token for a member, signed
 *   with the merchant's first secret (of `MERCHANT_SECRETS`, else the store, else the demo secret
 *   on loopback), to test an integration.
 * @module
 */

import { signIdentityToken, MAX_TOKEN_LIFETIME_S } from './identity/identity-token.js';
import { MerchantSecretsError, sealingKeyOf } from './identity/merchant-secrets.js';
import { isLoopbackHost } from './config.js';
import { parseIdentityConfig } from './identity-config.js';
import { Members } from './services/members.js';
import { serverKeysOf } from './store/open-store.js';
import type { Store } from './store/types.js';

/** The usage lines of the verified-identity commands. */
export const MEMBER_USAGE = `  merchant secret add <mchId> [--stdin]           a new identity-token secret (random, or stdin), sealed in the store, printed once
  merchant secret list [<mchId>]                 the stored secrets' ids and dates (never the secrets)
  merchant secret remove <mchId> <secretId>
  member token <mchId> <sub> [--ttl <s>] [--name <name>]  a verified-identity token for a member (testing an integration)`;

/** What the commands need. */
export interface MemberCommandIo {
  /** The environment (`MERCHANT_SECRETS`, `MERCHANT_SECRETS_KEY`, `HOST`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Output lines. */
  out: (line: string) => void;
  /** Reads the first line of stdin (`--stdin`). */
  readLine: () => Promise<string>;
  /** Builds the usage error of a bad command line. */
  usage: (message: string) => Error;
  /** Takes `--name value` out of the arguments. */
  option: (args: string[], name: string) => string | undefined;
}

async function membersOf(store: Store, dataDir: string, io: MemberCommandIo): Promise<Members> {
  try {
    const config = parseIdentityConfig(io.env, isLoopbackHost(io.env['HOST']?.trim() || '127.0.0.1'));
    const keys = await serverKeysOf(store, dataDir);
    return new Members({ store, config, sealingKey: sealingKeyOf(config.sealingKey, keys.privateKeyPem) });
  } catch (error) {
    if (error instanceof MerchantSecretsError) throw io.usage(error.message);
    throw error;
  }
}

/** `merchant secret ...`. */
export async function merchantSecretCommand(rest: string[], store: Store, dataDir: string, io: MemberCommandIo): Promise<number> {
  const stdin = rest.includes('--stdin');
  const args = rest.filter((a) => a !== '--stdin');
  const [command, mchId = '', secretId = ''] = args;
  const members = await membersOf(store, dataDir, io);
  if (command === 'list') {
    const listed = await members.listSecrets(mchId === '' ? undefined : mchId);
    if (listed.length === 0) io.out('no merchant secrets in the store (secrets of MERCHANT_SECRETS are not listed here)');
    for (const s of listed) io.out(`${s.mchId}\t${s.secretId}\tadded ${new Date(s.createdAt).toISOString()}${s.readable ? '' : '\tUNREADABLE (sealed under another key)'}`);
    return 0;
  }
  if (mchId === '') throw io.usage('name the merchant by its mchId');
  if (command === 'add') {
    try {
      const given = stdin ? (await io.readLine()).replace(/\r?\n$/, '').trim() : undefined;
      const { secretId: id, secret } = await members.addSecret(mchId, given);
      io.out(`added secret "${id}" for merchant "${mchId}" (sealed in the store; shown once):`);
      io.out(secret);
      return 0;
    } catch (error) {
      if (error instanceof MerchantSecretsError) throw io.usage(error.message);
      throw error;
    }
  }
  if (command === 'remove') {
    if (secretId === '') throw io.usage('name the secret by its id (merchant secret list)');
    if (!(await members.removeSecret(mchId, secretId))) {
      io.out(`no secret "${secretId}" of merchant "${mchId}" in the store`);
      return 1;
    }
    io.out(`removed secret "${secretId}" of merchant "${mchId}"`);
    return 0;
  }
  throw io.usage(`unknown merchant secret command "${command ?? ''}"`);
}

/** `member token <mchId> <sub> [--ttl <seconds>] [--name <name>]`. */
export async function memberTokenCommand(rest: string[], store: Store, dataDir: string, io: MemberCommandIo): Promise<number> {
  const args = [...rest];
  const ttlRaw = io.option(args, '--ttl');
  const name = io.option(args, '--name');
  const [mchId = '', sub = ''] = args;
  if (mchId === '' || sub === '' || sub.length > 128) throw io.usage('member token needs <mchId> and <sub> (1-128 characters)');
  const ttlS = ttlRaw === undefined ? 3600 : Number(ttlRaw);
  if (!Number.isInteger(ttlS) || ttlS < 1 || ttlS > MAX_TOKEN_LIFETIME_S) throw io.usage(`--ttl is 1-${MAX_TOKEN_LIFETIME_S} seconds`);
  const [secret] = await (await membersOf(store, dataDir, io)).secretsOf(mchId);
  if (secret === undefined) {
    io.out(`merchant "${mchId}" has no secret (set MERCHANT_SECRETS or run "merchant secret add ${mchId}")`);
    return 1;
  }
  io.out(await signIdentityToken({ mchId, sub, ttlS, ...(name === undefined ? {} : { name }) }, secret));
  return 0;
}
