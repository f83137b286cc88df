/**
 * The admin command, working on the store of `DATA_DIR` (the server may be running: SQLite in WAL
 * mode takes both). `npm run admin -w @kefu-im/server -- <command>`:
 *
 * - `agent add <account> [--name <display name>] [--merchant <mchId>[,<mchId>...]]`: the password
 *   comes from `AGENT_PASSWORD` or the first line of stdin; stored as a scrypt hash. Adding an
 *   existing account replaces its password and name (and its merchants when given). A new agent
 *   works for the demo merchant unless `--merchant` says otherwise.
 * - `agent merchants <account> <mchId>[,<mchId>...]`: the merchants the agent works for (it sees
 *   only their queue, conversations, canned replies and past conversations)
 * - `agent remove <account>`, `agent list`
 * - `visitor blacklist <clientId>`, `visitor unblacklist <clientId>`
 * - `visitor ban <clientId>`, `visitor unban <clientId>`
 * - `merchant sneak-peek <mchId> on|off`: whether the merchant's agents see a visitor's draft as it
 *   is typed (protocol §5a; off by default; `SNEAK_PEEK_MERCHANTS` switches it on too)
 * - `canned add|update|list|remove ...`: a merchant's canned replies (see `admin-canned.ts`)
 * - `hours set <mchId> '<json>'`: the merchant's business hours (`{ "timeZone": "Asia/Shanghai",
 *   "days": { "mon": [["09:00", "18:00"]] } }`, see `services/business-hours.ts`); they win over
 *   `MERCHANT_HOURS`. `hours clear <mchId>` removes them, `hours show <mchId>` prints them.
 * - `hash`: prints the scrypt hash of the password (for `AGENTS=account:scrypt$...`)
 * - `visitor export|delete <clientId>`, `retention ...`, `admin-token`: privacy (see `admin-privacy.ts`)
 * - `merchant secret add|list|remove ...`, `member token ...`: verified identity (see `admin-members.ts`)
 * @module
 */

import { MAX_CAPACITY } from './routing-config.js';
import { join, resolve } from 'node:path';
import { cannedCommand, CANNED_USAGE } from './admin-canned.js';
import { adminTokenCommand, PRIVACY_USAGE, retentionCommand, visitorPrivacyCommand } from './admin-privacy.js';
import { MEMBER_USAGE, memberTokenCommand, merchantSecretCommand } from './admin-members.js';
import { hashPassword } from './agents/password.js';
import { AgentMerchantsError, DEFAULT_AGENT_MERCHANT, parseMerchantList } from './agents/merchants.js';
import { HoursError, parseBusinessHours } from './services/business-hours.js';
import { openStore } from './store/open-store.js';
import type { Store } from './store/types.js';

/** What the command reads and writes (injectable for tests). */
export interface AdminIo {
  /** The environment (`DATA_DIR` or `DATABASE_URL`, `AGENT_PASSWORD`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Reads the password when `AGENT_PASSWORD` is not set (the first line of stdin). */
  readPassword: () => Promise<string>;
  /** Output lines. */
  out: (line: string) => void;
  /** Opens the store; by default PostgreSQL at `DATABASE_URL` when set, else `DATA_DIR/kefu.db`. */
  openStore?: (dataDir: string) => Store | Promise<Store>;
}

/** A usage error: the command is printed with the usage and exits with 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const USAGE = `usage: npm run admin -w @kefu-im/server -- <command>
  agent add <account> [--name <display name>] [--merchant <mchId>[,<mchId>...]]
                                                password from AGENT_PASSWORD or stdin; merchant: the demo one (${DEFAULT_AGENT_MERCHANT}) by default
  agent merchants <account> <mchId>[,<mchId>...]  the merchants the agent works for
  agent remove <account>
  agent list
  agent capacity <account> <n>|default          conversations auto-assigned at once (default: AGENT_CAPACITY)
  visitor blacklist|unblacklist <clientId>
  visitor ban|unban <clientId>
  merchant sneak-peek <mchId> on|off             agents see the visitor's draft as it is typed
${MEMBER_USAGE}
${CANNED_USAGE}
  hours set <mchId> '<json>'                     business hours, e.g. '{"timeZone":"Asia/Shanghai","days":{"mon":[["09:00","18:00"]]}}'
  hours clear|show <mchId>
  hash                                          prints the scrypt hash of the password (AGENT_PASSWORD or stdin)
${PRIVACY_USAGE}
the store is DATA_DIR/kefu.db (DATA_DIR defaults to ./data)`;

const ACCOUNT = /^[A-Za-z0-9_.-]{1,32}$/;

async function password(io: AdminIo): Promise<string> {
  const value = io.env['AGENT_PASSWORD'] ?? (await io.readPassword());
  const trimmed = value.replace(/\r?\n$/, '');
  if (trimmed.length < 8) throw new UsageError('the password must have at least 8 characters');
  if (trimmed.length > 1024) throw new UsageError('the password is longer than 1024 characters');
  return trimmed;
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined) throw new UsageError(`${name} needs a value`);
  args.splice(i, 2);
  return value;
}

/**
 * Runs one admin command.
 * @returns the exit code.
 */
export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<number> {
  const args = [...argv];
  const [group, command] = args;
  if (group === 'hash') {
    io.out(hashPassword(await password(io)));
    return 0;
  }
  if (group === 'admin-token') return adminTokenCommand(io.out);
  if (group === undefined || group === 'help' || group === '--help') {
    io.out(USAGE);
    return group === undefined ? 2 : 0;
  }
  const dataDir = resolve(io.env['DATA_DIR']?.trim() || './data');
  const databaseUrl = io.env['DATABASE_URL']?.trim() ?? '';
  const store = await (io.openStore ?? ((dir) => openStore({ databaseUrl, memoryDb: false, dataDir: dir })))(dataDir);
  try {
    if (group === 'agent') return await agentCommand(command, args.slice(2), store, io);
    const privacyIo = { env: io.env, out: io.out, usage: (m: string) => new UsageError(m) };
    if (group === 'visitor' && (command === 'export' || command === 'delete')) {
      const clientId = args[2] ?? '';
      if (clientId === '') throw new UsageError('name the visitor by its clientId');
      return await visitorPrivacyCommand(command, clientId, store, dataDir, privacyIo);
    }
    if (group === 'retention') return await retentionCommand(command, args.slice(2), store, dataDir, privacyIo);
    if (group === 'visitor') return await visitorCommand(command, args.slice(2), store, io);
    const memberIo = { env: io.env, out: io.out, readLine: io.readPassword, usage: (m: string) => new UsageError(m), option };
    if (group === 'merchant' && command === 'secret') return await merchantSecretCommand(args.slice(2), store, dataDir, memberIo);
    if (group === 'member' && command === 'token') return await memberTokenCommand(args.slice(2), store, dataDir, memberIo);
    if (group === 'merchant') return await merchantCommand(command, args.slice(2), store, io);
    if (group === 'canned') return await cannedCommand(command, args.slice(2), store, io.out, option, (m) => new UsageError(m));
    if (group === 'hours') return await hoursCommand(command, args.slice(2), store, io);
    throw new UsageError(`unknown command "${group}"`);
  } finally {
    await store.close();
  }
}

async function agentCommand(command: string | undefined, rest: string[], store: Store, io: AdminIo): Promise<number> {
  if (command === 'list') {
    const agents = await store.identity.agents();
    if (agents.length === 0) io.out('no agents in the store (agents of AGENTS are not listed here)');
    for (const a of agents) io.out(`${a.account}\t${a.name}\tmerchants ${a.merchants.join(',')}\tadded ${new Date(a.createdAt).toISOString()}`);
    return 0;
  }
  const name = option(rest, '--name');
  const merchantOption = option(rest, '--merchant');
  const account = rest[0] ?? '';
  if (!ACCOUNT.test(account)) throw new UsageError('the account is 1-32 letters, digits, _ . -');
  if (command === 'add') {
    const merchants = merchantOption === undefined ? undefined : merchantList(merchantOption);
    const passwordHash = hashPassword(await password(io));
    const existing = await store.identity.agent(account);
    await store.identity.putAgent({
      account,
      name: name?.trim() || existing?.name || account,
      passwordHash,
      merchants: merchants ?? existing?.merchants ?? [DEFAULT_AGENT_MERCHANT],
      createdAt: existing?.createdAt ?? Date.now(),
    });
    io.out(`${existing ? 'updated' : 'added'} agent "${account}" (the password is stored as a scrypt hash)`);
    return 0;
  }
  if (command === 'merchants') return merchantsCommand(account, rest[1] ?? '', store, io);
  if (command === 'capacity') return capacityCommand(account, rest[1] ?? '', store, io);
  if (command === 'remove') {
    if (!(await store.identity.removeAgent(account))) {
      io.out(`no agent "${account}" in the store`);
      return 1;
    }
    io.out(`removed agent "${account}"`);
    return 0;
  }
  throw new UsageError(`unknown agent command "${command ?? ''}"`);
}

/** A merchant list of the command line. @throws UsageError when it is not one */
function merchantList(raw: string): string[] {
  try {
    return parseMerchantList(raw);
  } catch (error) {
    throw new UsageError(error instanceof AgentMerchantsError ? error.message : String(error));
  }
}

/** `agent merchants <account> <mchId>[,<mchId>...]`: the merchants a stored agent works for. */
async function merchantsCommand(account: string, value: string, store: Store, io: AdminIo): Promise<number> {
  const merchants = merchantList(value);
  const existing = await store.identity.agent(account);
  if (!existing) {
    io.out(`no agent "${account}" in the store (agents of AGENTS get theirs from AGENT_MERCHANTS)`);
    return 1;
  }
  await store.identity.putAgent({ ...existing, merchants });
  const unknown: string[] = [];
  for (const mchId of merchants) if (!(await store.directory.merchant(mchId))) unknown.push(mchId);
  io.out(`agent "${account}": merchants ${merchants.join(',')}${unknown.length > 0 ? ` (not in the store yet: ${unknown.join(',')})` : ''}`);
  return 0;
}

/** `agent capacity <account> <n>|default`: stored per agent, over the config's AGENT_CAPACITY(IES). */
async function capacityCommand(account: string, value: string, store: Store, io: AdminIo): Promise<number> {
  const capacity = value === 'default' ? null : Number(value);
  if (capacity !== null && (value.trim() === '' || !Number.isInteger(capacity) || capacity < 0 || capacity > MAX_CAPACITY)) {
    throw new UsageError(`the capacity is an integer between 0 and ${MAX_CAPACITY}, or "default"`);
  }
  await store.chat.setAgentCapacity(`agent:${account}`, capacity);
  io.out(`agent "${account}": capacity ${capacity === null ? 'from the config' : String(capacity)}`);
  return 0;
}

async function visitorCommand(command: string | undefined, rest: string[], store: Store, io: AdminIo): Promise<number> {
  const clientId = rest[0] ?? '';
  const flags: Record<string, { blacklisted?: boolean; banned?: boolean }> = {
    blacklist: { blacklisted: true },
    unblacklist: { blacklisted: false },
    ban: { banned: true },
    unban: { banned: false },
  };
  const change = command === undefined ? undefined : flags[command];
  if (!change) throw new UsageError(`unknown visitor command "${command ?? ''}"`);
  if (clientId === '') throw new UsageError('name the visitor by its clientId');
  if (!(await store.chat.visitor(clientId))) {
    io.out(`no visitor "${clientId}" in the store`);
    return 1;
  }
  await store.chat.setVisitorFlags(clientId, change);
  const v = await store.chat.visitor(clientId);
  io.out(`visitor "${clientId}": blacklisted=${String(v?.blacklisted)} banned=${String(v?.banned)}`);
  return 0;
}

async function merchantCommand(command: string | undefined, rest: string[], store: Store, io: AdminIo): Promise<number> {
  if (command !== 'sneak-peek') throw new UsageError(`unknown merchant command "${command ?? ''}"`);
  const [mchId = '', value = ''] = rest;
  if (mchId === '') throw new UsageError('name the merchant by its mchId');
  if (value !== 'on' && value !== 'off') throw new UsageError('sneak-peek is "on" or "off"');
  const merchant = await store.directory.merchant(mchId);
  if (!merchant) {
    io.out(`no merchant "${mchId}" in the store`);
    return 1;
  }
  await store.directory.putMerchant({ ...merchant, extra: { ...merchant.extra, sneakPeek: value === 'on' } });
  io.out(`merchant "${mchId}": sneak peek ${value}`);
  return 0;
}

async function hoursCommand(command: string | undefined, rest: string[], store: Store, io: AdminIo): Promise<number> {
  const [mchId = '', json] = rest;
  if (mchId === '') throw new UsageError('name the merchant by its mchId');
  if (command === 'show') {
    io.out((await store.directory.merchantHours(mchId)) ?? `no hours stored for merchant "${mchId}" (MERCHANT_HOURS applies, or always open)`);
    return 0;
  }
  if (command === 'clear') {
    await store.directory.putMerchantHours(mchId, null, Date.now());
    io.out(`cleared the hours of merchant "${mchId}"`);
    return 0;
  }
  if (command !== 'set') throw new UsageError(`unknown hours command "${command ?? ''}"`);
  if (json === undefined) throw new UsageError('hours set needs the hours as JSON');
  let hours;
  try {
    hours = parseBusinessHours(JSON.parse(json));
  } catch (error) {
    throw new UsageError(error instanceof HoursError ? error.message : 'the hours are not valid JSON');
  }
  await store.directory.putMerchantHours(mchId, JSON.stringify(hours), Date.now());
  io.out(`set the hours of merchant "${mchId}" (${hours.timeZone})`);
  return 0;
}

/** The usage text. */
export function usage(): string {
  return USAGE;
}
