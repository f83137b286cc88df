import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { needsBinding, welcomeBeforeCall } from './bound-calls.js';
import { defaultTimers } from '../timers.js';
import { AWS_UPLOAD_PATH } from './http-client.js';
import { CHUNK_PATH, PERMIT_PATH, TRANSLATE_PATH } from './permit-api.js';

/** The permit calls the reference server registers, by kind: `boundRoute` (bound key session) or `encRoute`. */
function serverRoutes(kind: 'boundRoute' | 'encRoute'): string[] {
  const dir = new URL('../../examples/server/src/http/', import.meta.url);
  const names: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const source = readFileSync(new URL(file, dir), 'utf8');
    for (const m of source.matchAll(new RegExp(`${kind}\\(app, deps, '(?:GET|POST)', '([\\w/]+)'`, 'g'))) names.push(m[1]!);
  }
  return names;
}

describe('issue 24: which calls wait for the welcome (protocol §3a.3)', () => {
  it("every call the reference server answers only for a bound key session, and the uploads", () => {
    const bound = serverRoutes('boundRoute');
    expect(bound).toEqual(expect.arrayContaining(['findMsgForCus', 'markScore', 'question', 'createMsg', 'getGroupUserList']));
    for (const name of bound) expect(needsBinding(`${PERMIT_PATH}/${name}`, {}), name).toBe(true);
    for (const path of [AWS_UPLOAD_PATH, `${CHUNK_PATH}/init`, `${CHUNK_PATH}/upload`, `${CHUNK_PATH}/complete`, `${CHUNK_PATH}/abort`]) expect(needsBinding(path, {}), path).toBe(true);
  });

  it("no other call: start-up, the public ones, translating; getGroupInfo only when it names a visitor", () => {
    const open = serverRoutes('encRoute');
    expect(open).toEqual(expect.arrayContaining(['questionLike', 'getMerchantById', 'checkPlatform', 'getGroupInfo']));
    for (const name of open) expect(needsBinding(`${PERMIT_PATH}/${name}`, {}), name).toBe(false);
    for (const name of ['getServerTime', 'getAesKey', 'getUserToken', 'switchAES', 'decodeParam']) expect(needsBinding(`${PERMIT_PATH}/${name}`, {}), name).toBe(false);
    expect(needsBinding('/api/public/config', {})).toBe(false);
    expect(needsBinding(TRANSLATE_PATH, {})).toBe(false);
    expect(needsBinding(`${PERMIT_PATH}/getGroupInfo`, { query: { groupId: 'G1', clientId: 'v1' } })).toBe(true);
  });

  it('waits for the welcome, at most the bound, and leaves no timer', async () => {
    vi.useFakeTimers();
    try {
      const timers = defaultTimers; // looks the (fake) globals up at call time
      let welcome: () => void = () => undefined;
      const welcomed = new Promise<void>((resolve) => (welcome = resolve));
      let done = false;
      void welcomeBeforeCall(`${PERMIT_PATH}/question`, {}, () => welcomed, timers, 1_000)?.then(() => (done = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(done).toBe(false);
      welcome();
      await vi.advanceTimersByTimeAsync(0);
      expect(done).toBe(true);
      expect(vi.getTimerCount()).toBe(0);

      let late = false;
      void welcomeBeforeCall(`${PERMIT_PATH}/question`, {}, () => new Promise<void>(() => undefined), timers, 1_000)?.then(() => (late = true));
      await vi.advanceTimersByTimeAsync(1_000);
      expect(late).toBe(true);
      expect(welcomeBeforeCall(`${PERMIT_PATH}/questionLike`, {}, () => welcomed, timers, 1_000)).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
