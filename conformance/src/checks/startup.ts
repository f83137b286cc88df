/**
 * Start-up key exchange (protocol §1) and the public configuration (docs/protocol.md §2).
 * @module
 */

import { fetchAesKey, fetchAesSwitch, fetchServerTime, fetchUserToken, http, isEnvelope, newRequestKey, rsaPublicKey } from '../client/index.js';
import { CheckSkipped, ensure, show, type Check } from '../types.js';

const DAY_MS = 86_400_000;

/** The start-up checks. */
export const startupChecks: Check[] = [
  {
    id: 'startup.server-time',
    rule: 'protocol §1.2',
    title: 'getServerTime answers the server time in ms',
    async run(ctx) {
      const time = await fetchServerTime(ctx.options.baseUrl);
      const off = time - Date.now();
      ensure(Math.abs(off) < DAY_MS, `${time} is ${off} ms away from this machine's clock: not ms since the epoch?`);
    },
  },
  {
    id: 'startup.aes-key',
    rule: 'protocol §1.3',
    title: 'getAesKey answers a 32-byte AES key masked with the request key',
    async run(ctx) {
      const requestKey = newRequestKey();
      ctx.startup.requestKey = requestKey;
      ctx.startup.aesKey = await fetchAesKey(ctx.options.baseUrl, requestKey);
    },
  },
  {
    id: 'startup.user-token',
    rule: 'protocol §1.4',
    title: 'getUserToken answers GCM(aesKey, 32-character token) and a salt key',
    async run(ctx) {
      const { requestKey, aesKey } = ctx.startup;
      ensure(requestKey && aesKey, 'needs the AES key (startup.aes-key failed)');
      const { token, saltKey } = await fetchUserToken(ctx.options.baseUrl, requestKey, aesKey);
      ctx.startup.token = token;
      ctx.startup.saltKey = saltKey;
    },
  },
  {
    id: 'startup.aes-switch',
    rule: 'protocol §1.5',
    title: 'switchAES answers a boolean, asked without a salt key (the SDK asks beside the keys)',
    async run(ctx) {
      ctx.startup.aesSwitch = await fetchAesSwitch(ctx.options.baseUrl);
    },
  },
  {
    id: 'startup.new-key-session',
    rule: 'protocol §1.1',
    title: 'every start-up gets its own key session (salt key and token)',
    async run(ctx) {
      const [a, b] = await Promise.all([ctx.session('a'), ctx.session('b')]);
      ensure(a.saltKey !== b.saltKey, `two start-ups got the same salt key ${show(a.saltKey)}`);
      ensure(a.token !== b.token, 'two start-ups got the same user token');
    },
  },
  {
    id: 'startup.public-config',
    rule: 'docs/protocol.md §2',
    title: 'GET /im/api/public/config answers socketUrl, socketKey (RSA public key, secret) and aesSwitch',
    async run(ctx) {
      if (ctx.options.socketUrl !== undefined && ctx.options.socketKey !== undefined) {
        throw new CheckSkipped('the socket URL and key were given as options');
      }
      const { status, body } = await http(`${ctx.options.baseUrl}/im/api/public/config`);
      ensure(status === 200 && isEnvelope(body) && body.code === 0, `answered HTTP ${status} ${show(body)}`);
      const data = body.data as Record<string, unknown> | null;
      ensure(typeof data?.['socketUrl'] === 'string' && /^wss?:\/\//.test(data['socketUrl']), `socketUrl is ${show(data?.['socketUrl'])}, not a ws(s):// URL`);
      const socketKey = data['socketKey'];
      ensure(typeof socketKey === 'string' && socketKey.includes(','), `socketKey is ${show(socketKey)}, not "<publicKey>,<secret>"`);
      const [publicKey = '', secret = ''] = socketKey.split(',');
      try {
        rsaPublicKey(publicKey);
      } catch (error) {
        ensure(false, `the socket key's public half is not an RSA SubjectPublicKeyInfo: ${(error as Error).message}`);
      }
      ensure(secret !== '', "the socket key's HMAC secret is empty");
      const aesSwitch = ctx.startup.aesSwitch ?? (await ctx.session('a')).aesSwitch;
      ensure(data['aesSwitch'] === aesSwitch, `aesSwitch is ${show(data['aesSwitch'])} but switchAES answered ${String(aesSwitch)}`);
    },
  },
];
