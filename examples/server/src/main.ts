/**
 * Command-line entry: reads the environment, starts the server, prints the links, and shuts down
 * gracefully on SIGINT/SIGTERM.
 * @module
 */

import { ConfigError, DEMO_CREDENTIALS, loadConfig } from './config.js';
import { createServer } from './server.js';
import { demoIdentityLink } from './identity/demo-identity.js';
import { DEMO_MERCHANT_SECRET } from './identity/merchant-secrets.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  let server;
  try {
    server = await createServer(config);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  /** A connection URL without its password, for the console. */
  const redactUrl = (url: string): string => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  const lines = [
    `kefu-im server listening on ${server.url}`,
    `  data directory:   ${config.dataDir}${config.memoryDb ? ' (database in memory)' : ''}`,
    `  store:            ${config.databaseUrl === '' ? 'SQLite (embedded)' : `PostgreSQL at ${redactUrl(config.databaseUrl)}`}`,
    `  cluster:          ${config.redisUrl === '' ? 'none (one node)' : `node "${config.nodeId}", delivery through Redis at ${redactUrl(config.redisUrl)}`}`,
    `  AES switch:       ${config.aesSwitch ? 'on' : 'off'}`,
    `  public config:    ${server.url}/im/api/public/config`,
    `  socket:           ${server.socketUrl}`,
    `  visitor entry:    ${server.url}${server.entryPath}`,
    `  agent desk:       ${server.url}/agent`,
  ];
  if (server.config.demoAgent) {
    lines.push(`  demo agent:       account "${DEMO_CREDENTIALS.account}", password "${DEMO_CREDENTIALS.password}"`);
    lines.push('  WARNING:          the demo agent account is public knowledge; it works on loopback only.');
    lines.push('                    Set AGENTS or run "npm run admin -w @kefu-im/server -- agent add <account>".');
  } else {
    lines.push(`  agents:           ${server.config.agents.map((a) => a.account).join(', ') || '(from the store)'}`);
  }
  if (await server.members.demoSecretActive()) {
    lines.push(`  demo merchant:    identity-token secret "${DEMO_MERCHANT_SECRET}" (HS256; public knowledge, loopback only)`);
    lines.push(`  verified visitor: ${await demoIdentityLink(server.url, server.entryPath)}`);
    lines.push('                    (a demo member, token valid 1 h; set MERCHANT_SECRETS or "npm run admin -w @kefu-im/server -- merchant secret add <mchId>")');
  } else {
    const verified = server.config.identity.merchantSecrets.map((s) => s.mchId);
    lines.push(`  verified identity: ${verified.length > 0 ? `MERCHANT_SECRETS for ${[...new Set(verified)].join(', ')}, and` : ''} secrets added with "merchant secret add"`);
  }
  if (config.translateUrl === '') lines.push('  translation:      not configured (set TRANSLATE_URL)');
  lines.push(`  admin API:        ${config.privacy.adminTokenHash === '' ? 'off (set ADMIN_TOKEN)' : `${server.url}/admin/api/ (Authorization: Bearer <ADMIN_TOKEN>)`}`);
  const retention = await server.retention.setting();
  lines.push(`  retention:        ${retention.days === 0 ? 'off, everything is kept (RETENTION_DAYS)' : `${retention.days} days (${retention.source === 'store' ? 'set with the admin command' : 'RETENTION_DAYS'})`}`);
  console.log(lines.join('\n'));

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal} received, shutting down...`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('kefu-im server failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
