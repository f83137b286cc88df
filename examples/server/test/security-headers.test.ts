/**
 * Security headers per route (SECURITY.md): the CSP without inline script, nosniff, the referrer
 * policy, `frame-ancestors 'none'` on the agent desk and the `FRAME_ANCESTORS` allow-list on the
 * visitor pages; nosniff on API answers too.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseFrameAncestors } from '../src/config.js';
import { isAgentPage } from '../src/http/security-headers.js';
import { removeDir, startServer, tempDir } from './helpers/start.js';

type Server = Awaited<ReturnType<typeof startServer>>;
let built: Server;
let placeholder: Server;
let appDir: string;

beforeAll(async () => {
  appDir = tempDir();
  mkdirSync(join(appDir, 'assets'), { recursive: true });
  writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>kefu app</title><div id="root"></div><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(appDir, 'assets', 'app.js'), 'console.log(1)');
  built = await startServer({ appDir }, { FRAME_ANCESTORS: 'https://shop.example https://m.shop.example' });
  placeholder = await startServer();
});

afterAll(async () => {
  await Promise.all([built.close(), placeholder.close()]);
  for (const dir of [built.dataDir, placeholder.dataDir, appDir]) removeDir(dir);
});

function directives(csp: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (csp ?? '').split(';')) {
    const [name = '', ...values] = part.trim().split(/\s+/);
    if (name !== '') out.set(name, values.join(' '));
  }
  return out;
}

const page = (server: Server, path: string) => fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });

describe('app pages: CSP without inline script, nosniff, referrer policy', () => {
  it.each(['/', '/kefu/abc', '/group/1/name', '/redirect/a/b', '/404', '/401', '/no/such/page', '/agent', '/agent/x'])('%s', async (path) => {
    const res = await page(built, path);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('default-src')).toBe("'self'");
    expect(csp.get('object-src')).toBe("'none'");
    expect(csp.get('base-uri')).toBe("'self'");
    expect(csp.get('connect-src')).toBe("'self' ws: wss:");
    expect(res.headers.get('content-security-policy')).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  });

  it("the agent desk is never framed: frame-ancestors 'none' and X-Frame-Options DENY, however the path is spelled", async () => {
    for (const path of ['/agent', '/agent/', '/agent/chat', '/%61gent', '/AGENT']) {
      const res = await page(built, path);
      expect(directives(res.headers.get('content-security-policy')).get('frame-ancestors'), path).toBe("'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });

  it('the visitor pages may be framed by the FRAME_ANCESTORS allow-list only', async () => {
    for (const path of ['/', '/kefu/abc', '/group/1/name', '/404', '/no/such/page', '/agentx']) {
      const res = await page(built, path);
      expect(directives(res.headers.get('content-security-policy')).get('frame-ancestors'), path).toBe('https://shop.example https://m.shop.example');
      expect(res.headers.get('x-frame-options'), path).toBeNull();
    }
  });

  it("frame-ancestors is 'self' by default, on the placeholder page too", async () => {
    const kefu = await page(placeholder, '/kefu/abc');
    expect(await kefu.text()).toContain('kefu-im reference server');
    expect(directives(kefu.headers.get('content-security-policy')).get('frame-ancestors')).toBe("'self'");
    const agent = await page(placeholder, '/agent');
    expect(directives(agent.headers.get('content-security-policy')).get('frame-ancestors')).toBe("'none'");
  });

  it('static assets get nosniff; API answers get nosniff and no page policy', async () => {
    const asset = await fetch(`${built.url}/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    const api = await fetch(`${built.url}/im/api/permit/getServerTime`);
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    expect(api.headers.get('content-security-policy')).toBeNull();
    const missing = await fetch(`${built.url}/im/api/permit/nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('FRAME_ANCESTORS', () => {
  it("reads origins separated by spaces or commas; empty means 'self'", () => {
    expect(parseFrameAncestors('')).toEqual(["'self'"]);
    expect(parseFrameAncestors("https://a.example, https://*.b.example:8443 'self'")).toEqual(['https://a.example', 'https://*.b.example:8443', "'self'"]);
    expect(loadConfig({}).frameAncestors).toEqual(["'self'"]);
  });

  it('refuses what is not an origin, and anything that would widen the policy', () => {
    for (const bad of ['*', 'shop.example', 'https://a.example/path', "https://a.example; script-src *", 'javascript:x', "'none' https://a.example"]) {
      expect(() => parseFrameAncestors(bad), bad).toThrow(ConfigError);
    }
  });

  it('isAgentPage', () => {
    expect(isAgentPage('/agent?x=1')).toBe(true);
    expect(isAgentPage('//agent')).toBe(true);
    expect(isAgentPage('/agents')).toBe(false);
    expect(isAgentPage('/kefu/agent')).toBe(false);
  });
});
