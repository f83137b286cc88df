/**
 * One set of codes (src/codes.ts, `@kefu-im/sdk/codes`): the reference server sends exactly the
 * close codes and envelope codes the SDK and the app read, and docs/protocol.md names them all.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiErrorCode, CloseCode } from '../src/codes.js';
import { Code } from '../examples/server/src/http/envelope.js';
import { localizedMessage } from '../examples/server/src/http/localize.js';
import * as serverCloseCodes from '../examples/server/src/socket/close-codes.js';

const protocolDoc = readFileSync(new URL('../docs/protocol.md', import.meta.url), 'utf8');

describe('the server closes sockets with the codes the SDK knows', () => {
  it('every server close code (1000, 1009, 1011, 1012, 1013, 4001-4006) is the shared one', () => {
    expect({ ...serverCloseCodes }).toEqual({
      LOGGED_OUT_CLOSE: CloseCode.Normal,
      FRAME_TOO_LARGE_CLOSE: CloseCode.FrameTooLarge,
      SERVER_ERROR_CLOSE: CloseCode.ServerError,
      SERVICE_RESTART_CLOSE: CloseCode.ServiceRestart,
      TRY_AGAIN_LATER_CLOSE: CloseCode.TryAgainLater,
      CONNECT_REFUSED: CloseCode.Unauthorized,
      IDLE_CLOSE: CloseCode.Idle,
      BANNED_CLOSE: CloseCode.Banned,
      IDENTITY_REFUSED: CloseCode.IdentityRefused,
      TOO_MANY_CONNECTIONS_CLOSE: CloseCode.TooManyConnections,
      IDENTITY_TOKEN_REFUSED_CLOSE: CloseCode.IdentityTokenRefused,
    });
    expect(Object.values(serverCloseCodes).sort((a, b) => a - b)).toEqual([1000, 1009, 1011, 1012, 1013, 4001, 4002, 4003, 4004, 4005, 4006]);
  });

  it('the protocol\'s own codes are 4001-4006, the standard ones as RFC 6455 numbers them', () => {
    expect(CloseCode).toEqual({
      Normal: 1000,
      GoingAway: 1001,
      Abnormal: 1006,
      FrameTooLarge: 1009,
      ServerError: 1011,
      ServiceRestart: 1012,
      TryAgainLater: 1013,
      Unauthorized: 4001,
      Idle: 4002,
      Banned: 4003,
      IdentityRefused: 4004,
      TooManyConnections: 4005,
      IdentityTokenRefused: 4006,
    });
    expect(Object.isFrozen(CloseCode)).toBe(true);
  });
});

describe('the server answers with the envelope codes the SDK and the app know', () => {
  it('the server\'s envelope codes are the shared ones', () => {
    expect(Code).toBe(ApiErrorCode);
  });

  it('0 success; 413, 1000-1003, 2001-2004, 3001, 3002 and 4003 failures; -1 is the SDK\'s "no envelope"', () => {
    expect(ApiErrorCode).toEqual({
      Ok: 0,
      NoEnvelope: -1,
      TooFrequent: 413,
      Internal: 1000,
      BadRequest: 1001,
      BadSalt: 1002,
      NotFound: 1003,
      Blacklisted: 2001,
      AlreadyRated: 2002,
      Banned: 2003,
      Translate: 2004,
      Upload: 3001,
      UploadQuota: 3002,
      Forbidden: 4003,
    });
    expect(Object.isFrozen(ApiErrorCode)).toBe(true);
  });

  it('the server translates its messages of the shared codes (2001 blacklisted here)', () => {
    expect(localizedMessage(ApiErrorCode.Blacklisted, 'zh', 'fallback')).toBe('您已被拉黑，无法使用评价功能');
  });
});

describe('docs/protocol.md names every code', () => {
  it('each failure code of its table is a shared envelope code', () => {
    const table = protocolDoc.slice(protocolDoc.indexOf('Failure codes used by the reference server')).split('\n\n')[1] ?? '';
    const rows = [...table.matchAll(/^\| (\d+) \| /gm)].map((m) => Number(m[1]));
    expect(rows.length).toBeGreaterThan(5);
    const known: readonly number[] = Object.values(ApiErrorCode);
    for (const code of rows) expect(known, `docs/protocol.md code ${code}`).toContain(code);
  });

  it('every code the server sends on purpose is described', () => {
    const sent = [...Object.values(ApiErrorCode).filter((c) => c > 0), CloseCode.ServerError, CloseCode.ServiceRestart, CloseCode.TryAgainLater, ...Object.values(CloseCode).filter((c) => c >= 4000)];
    for (const code of sent) expect(protocolDoc, `docs/protocol.md mentions ${code}`).toMatch(new RegExp(`\\b${code}\\b`));
  });
});
