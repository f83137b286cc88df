import { beforeAll, describe, expect, it } from 'vitest';
import { aesEcbDecrypt, aesEcbEncrypt } from '../crypto/aes-ecb.js';
import { loadAesEcb } from '../crypto/load-aes-ecb.js';
import type { ChatMessage } from '../messages/types.js';
import { decodeFrame, encodeFrame, FrameError } from './frame-codec.js';

const KEY = 'abcdefghijklmnopqrstuvwxyz012345'; // 32 ASCII bytes, like a user token
const OTHER_KEY = 'ZYXWVUTSRQPONMLKJIHGFEDCBA987654';

const text: ChatMessage = { type: 100, from: 'u1', to: 'kefu', fp: 'f-1', dataContent: 'hello 你好' };

// The cipher loads with the keys (crypto/load-aes-ecb.ts); the client's start-up loads it.
beforeAll(() => loadAesEcb());

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('"Send: JSON with from, type, dataContent, encrypted with AES using the user token when the switch is on"', () => {
  it('switch off: the frame is the JSON text of the message', () => {
    expect(encodeFrame(text)).toBe('{"type":100,"from":"u1","to":"kefu","fp":"f-1","dataContent":"hello 你好"}');
  });

  it('switch on: the frame is AES-ECB(userKey, JSON text)', () => {
    const frame = encodeFrame(text, KEY);
    expect(frame).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(aesEcbDecrypt(KEY, frame)).toBe(JSON.stringify(text));
  });

  it('"dataContent is always a string on the wire": an object is sent as its JSON text', () => {
    const message = { type: 1, from: 'u1', dataContent: {} } as unknown as ChatMessage;
    expect(encodeFrame(message)).toBe('{"type":1,"from":"u1","dataContent":"{}"}');
    expect(message.dataContent).toEqual({});
  });

  it('bad input gets a FrameError', () => {
    expect(() => encodeFrame({ from: 'u1' } as unknown as ChatMessage)).toThrow(FrameError);
    expect(() => encodeFrame(null as unknown as ChatMessage)).toThrow(/not a message object/);
    const big = { type: 100, n: 1n } as unknown as ChatMessage;
    expect(() => encodeFrame(big)).toThrow(/cannot be serialised/);
    const err = thrown(() => encodeFrame(text, 'short key'));
    expect(err).toBeInstanceOf(FrameError);
    expect((err as FrameError).cause).toEqual(new Error('Invalid key length. Key must be 256 bits (32 bytes).'));
  });
});

describe('"Incoming: parsed as JSON; if that fails, decrypted with AES (ECB, PKCS7) using the user token"', () => {
  it('a JSON frame decodes as not encrypted, even when a key is known', () => {
    const frame = '{"type":51,"sm":1700000000000}';
    expect(decodeFrame(frame)).toEqual({ message: { type: 51, sm: 1700000000000 }, encrypted: false });
    expect(decodeFrame(frame, KEY)).toEqual({ message: { type: 51, sm: 1700000000000 }, encrypted: false });
  });

  it('an encrypted frame is decrypted with the user token', () => {
    const frame = aesEcbEncrypt(KEY, JSON.stringify(text));
    expect(decodeFrame(frame, KEY)).toEqual({ message: text, encrypted: true });
  });

  it('binary frames (ArrayBuffer, Uint8Array, Buffer) are read as UTF-8', () => {
    const json = JSON.stringify(text);
    const bytes = new TextEncoder().encode(json);
    expect(decodeFrame(bytes.buffer).message).toEqual(text);
    expect(decodeFrame(bytes).message).toEqual(text);
    expect(decodeFrame(Buffer.from(json)).message).toEqual(text);
    expect(decodeFrame(Buffer.from(aesEcbEncrypt(KEY, json)), KEY)).toEqual({ message: text, encrypted: true });
  });

  it('dataContent sent as an object is turned into its JSON text; null is dropped', () => {
    const frame = '{"type":300,"dataContent":{"event":"queued","position":2}}';
    expect(decodeFrame(frame).message.dataContent).toBe('{"event":"queued","position":2}');
    expect(decodeFrame('{"type":100,"dataContent":12}').message.dataContent).toBe('12');
    expect(decodeFrame('{"type":100,"dataContent":null}').message).toEqual({ type: 100 });
  });

  it('encoding never changes the message given (a non-string or null dataContent is normalised in a copy)', () => {
    const object = { type: 300, dataContent: { event: 'queued' } } as unknown as ChatMessage;
    expect(encodeFrame(object)).toBe('{"type":300,"dataContent":"{\\"event\\":\\"queued\\"}"}');
    expect(object.dataContent).toEqual({ event: 'queued' });
    const dropped = { type: 100, dataContent: null, fp: 'a' } as unknown as ChatMessage;
    expect(encodeFrame(dropped)).toBe('{"type":100,"fp":"a"}');
    expect(dropped).toEqual({ type: 100, dataContent: null, fp: 'a' });
    const text: ChatMessage = { type: 100, dataContent: 'hi', fp: 'b' };
    expect(encodeFrame(text)).toBe('{"type":100,"dataContent":"hi","fp":"b"}');
    expect(text).toEqual({ type: 100, dataContent: 'hi', fp: 'b' });
  });

  it('unknown types and unknown fields pass through', () => {
    expect(decodeFrame('{"type":999,"extra":[1]}').message).toEqual({ type: 999, extra: [1] });
  });
});

describe('"A frame that neither parses nor decrypts is dropped and reported as an error event": FrameError', () => {
  it('neither JSON nor decryptable: FrameError with the decryption error as cause', () => {
    const err = thrown(() => decodeFrame('not json at all', KEY));
    expect(err).toBeInstanceOf(FrameError);
    expect((err as FrameError).name).toBe('FrameError');
    expect((err as FrameError).cause).toEqual(new Error('Error decrypting text'));
  });

  it('ciphertext under another key does not decode', () => {
    const frame = aesEcbEncrypt(OTHER_KEY, JSON.stringify(text));
    expect(() => decodeFrame(frame, KEY)).toThrow(FrameError);
  });

  it('not JSON and no key: FrameError with the parse error as cause', () => {
    const err = thrown(() => decodeFrame('garbage'));
    expect(err).toBeInstanceOf(FrameError);
    expect((err as FrameError).cause).toBeInstanceOf(SyntaxError);
  });

  it('decrypted text that is not JSON', () => {
    expect(() => decodeFrame(aesEcbEncrypt(KEY, 'plain words'), KEY)).toThrow(/Decrypted frame is not JSON/);
  });

  it.each([
    ['an array', '[1,2]'],
    ['a number', '42'],
    ['null', 'null'],
    ['a string', '"text"'],
  ])('JSON that is %s is not a message', (_kind, frame) => {
    expect(() => decodeFrame(frame)).toThrow(/not a message object/);
    expect(() => decodeFrame(frame, KEY)).toThrow(/not a message object/);
  });

  it.each([['{}'], ['{"type":"100"}'], ['{"type":null}'], ['{"type":1e400}']])('type must be a finite number: %s', (frame) => {
    expect(() => decodeFrame(frame)).toThrow(/no numeric type/);
  });

  it('an encrypted frame whose message has no type', () => {
    expect(() => decodeFrame(aesEcbEncrypt(KEY, '{"from":"x"}'), KEY)).toThrow(/no numeric type/);
  });

  it('unsupported data (a Blob, an object, undefined)', () => {
    expect(() => decodeFrame(new Blob(['{"type":1}']))).toThrow(/Unsupported frame data/);
    expect(() => decodeFrame({ type: 1 })).toThrow(FrameError);
    expect(() => decodeFrame(undefined)).toThrow(FrameError);
  });
});
