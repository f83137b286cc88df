#!/usr/bin/env node
/**
 * `kefu-im-conformance <baseUrl> [options]`: checks a server against the kefu-im protocol and
 * prints one line per check and a `N passed, N failed` summary. Exit code 0 when every check
 * passed, 1 when any failed, 2 for unusable arguments.
 * @module
 */

import { parseArgs } from 'node:util';
import { CHECKS } from './checks/index.js';
import { DEFAULT_OPTIONS, type ConformanceOptions } from './options.js';
import { formatResult, formatSummary } from './report.js';
import { runConformance } from './run.js';

const USAGE = `Usage: kefu-im-conformance <baseUrl> [options]

Checks a kefu-im server over HTTP and WebSocket against the protocol (docs/protocol.md).

Options:
  --socket-url <url>        WebSocket endpoint (default: socketUrl of GET /im/api/public/config)
  --socket-key <key>        "<publicKey>,<secret>" (default: socketKey of the public configuration)
  --mch <id>                merchant id of the visitors (default ${DEFAULT_OPTIONS.mchId})
  --platform <id>           platform id (default ${DEFAULT_OPTIONS.platformId})
  --agent <account:password>  agent for the agent checks (default ${DEFAULT_OPTIONS.agent.account}:${DEFAULT_OPTIONS.agent.password})
  --no-agent                skip the agent checks
  --merchant-secret <s>     the merchant's identity-token secret: runs the verified-identity checks (§3b)
  --timeout <ms>            wait for any one answer (default ${DEFAULT_OPTIONS.timeoutMs})
  --burst <n>               texts sent at once by the rate check (default ${DEFAULT_OPTIONS.burst})
  --max-frame <bytes>       the server's frame size limit (default ${DEFAULT_OPTIONS.maxFrameBytes})
  --json                    print the report as JSON instead of lines
  --list                    list the checks and exit
  -h, --help                show this help

Exit code: 0 every check passed, 1 some check failed, 2 bad arguments.`;

class UsageError extends Error {}

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} takes a positive integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

function parse(argv: string[]): { options: ConformanceOptions; json: boolean } | 'help' | 'list' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'socket-url': { type: 'string' },
      'socket-key': { type: 'string' },
      mch: { type: 'string' },
      platform: { type: 'string' },
      agent: { type: 'string' },
      'no-agent': { type: 'boolean' },
      'merchant-secret': { type: 'string' },
      timeout: { type: 'string' },
      burst: { type: 'string' },
      'max-frame': { type: 'string' },
      json: { type: 'boolean' },
      list: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (values.list) return 'list';
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'give the server\'s base URL' : `one base URL, got ${positionals.length} arguments`);
  let agent: ConformanceOptions['agent'];
  if (values['no-agent']) agent = null;
  else if (values.agent !== undefined) {
    const colon = values.agent.indexOf(':');
    if (colon <= 0) throw new UsageError('--agent takes account:password');
    agent = { account: values.agent.slice(0, colon), password: values.agent.slice(colon + 1) };
  }
  const options: ConformanceOptions = {
    baseUrl: positionals[0] ?? '',
    ...(values['socket-url'] === undefined ? {} : { socketUrl: values['socket-url'] }),
    ...(values['socket-key'] === undefined ? {} : { socketKey: values['socket-key'] }),
    ...(values.mch === undefined ? {} : { mchId: values.mch }),
    ...(values.platform === undefined ? {} : { platformId: values.platform }),
    ...(agent === undefined ? {} : { agent }),
    ...(values['merchant-secret'] === undefined ? {} : { merchantSecret: values['merchant-secret'] }),
  };
  const timeoutMs = integer('timeout', values.timeout);
  const burst = integer('burst', values.burst);
  const maxFrameBytes = integer('max-frame', values['max-frame']);
  if (timeoutMs !== undefined) options.timeoutMs = timeoutMs;
  if (burst !== undefined) options.burst = burst;
  if (maxFrameBytes !== undefined) options.maxFrameBytes = maxFrameBytes;
  return { options, json: values.json === true };
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`kefu-im-conformance: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (parsed === 'list') {
    for (const check of CHECKS) console.log(`${check.id}  ${check.title}  [${check.rule}]`);
    return 0;
  }
  const { options, json } = parsed;
  if (!json) {
    console.log(`kefu-im conformance: ${options.baseUrl}`);
    options.onResult = (result) => console.log(formatResult(result));
  }
  let report;
  try {
    report = await runConformance(options);
  } catch (error) {
    console.error(`kefu-im-conformance: ${(error as Error).message}`);
    return 2;
  }
  console.log(json ? JSON.stringify(report, null, 2) : formatSummary(report));
  return report.failed > 0 ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
