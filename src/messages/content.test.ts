import { describe, expect, it } from 'vitest';
import { isChatType, messageTimeMs, parseAgentQueue, parseFileContent, parseRefusal, parseSessionEvent, parseSuggestions } from './content.js';

describe('file and video content (types 102/103): JSON { name, size, url, mime }', () => {
  it('reads the four fields', () => {
    expect(parseFileContent('{"name":"a.pdf","size":12,"url":"https://x/a.pdf","mime":"application/pdf"}')).toEqual({
      name: 'a.pdf',
      size: 12,
      url: 'https://x/a.pdf',
      mime: 'application/pdf',
    });
  });

  it('fills a missing name from the URL, size 0 and mime empty', () => {
    expect(parseFileContent('{"url":"https://x/dir/%E6%96%87.mp4?sig=1"}')).toEqual({ name: '文.mp4', size: 0, url: 'https://x/dir/%E6%96%87.mp4?sig=1', mime: '' });
  });

  it('gives null for anything else, never throws', () => {
    for (const bad of [undefined, '', 'not json', '[]', 'null', '"x"', '{"name":"a"}', '{"url":""}', '{"url":"u","size":-1}', '{"url":"u","size":"big"}', '{"url":"u","name":5}', '{"url":"u","mime":{}}']) {
      expect(parseFileContent(bad), String(bad)).toBeNull();
    }
  });

  it('accepts a numeric-string size', () => {
    expect(parseFileContent('{"url":"u","name":"n","size":"2048"}')?.size).toBe(2048);
  });
});

describe('suggested questions (type 201): JSON [{ id, question }]', () => {
  it('reads the list and skips malformed entries', () => {
    expect(parseSuggestions('[{"id":1,"question":"How?"},{"id":"b","question":"Why?"},{"id":2},{"question":"no id"},null,{"id":{},"question":"x"}]')).toEqual([
      { id: 1, question: 'How?' },
      { id: 'b', question: 'Why?' },
    ]);
  });

  it('gives [] for content that is not a list', () => {
    expect(parseSuggestions('{"id":1}')).toEqual([]);
    expect(parseSuggestions('oops')).toEqual([]);
    expect(parseSuggestions(undefined)).toEqual([]);
  });
});

describe('session events (type 300): JSON { event, ... }', () => {
  it('reads queued with its position and busy flag', () => {
    expect(parseSessionEvent('{"event":"queued","sessionId":"s1","position":3,"busy":true}')).toEqual({ event: 'queued', sessionId: 's1', position: 3, busy: true });
  });

  it('reads agent-joined with its agent', () => {
    expect(parseSessionEvent('{"event":"agent-joined","agent":{"id":7,"name":"Ann","avatar":"a.png"}}')).toEqual({
      event: 'agent-joined',
      agent: { id: '7', name: 'Ann', avatar: 'a.png' },
    });
  });

  it('drops optional fields of the wrong type and keeps unknown ones', () => {
    expect(parseSessionEvent('{"event":"ended","position":"x","busy":"yes","agent":{"id":1},"extra":1}')).toEqual({ event: 'ended', extra: 1 });
  });

  it('gives null without a string event', () => {
    expect(parseSessionEvent('{"event":1}')).toBeNull();
    expect(parseSessionEvent('{}')).toBeNull();
    expect(parseSessionEvent('[')).toBeNull();
  });
});

describe('refusals (type 500): JSON { reason, fp }', () => {
  it('reads reason and fp', () => {
    expect(parseRefusal('{"reason":"too-frequent","fp":"f1"}')).toEqual({ reason: 'too-frequent', fp: 'f1' });
  });

  it('keeps unknown reasons and tolerates a missing fp', () => {
    expect(parseRefusal('{"reason":"whatever"}')).toEqual({ reason: 'whatever' });
  });

  it('gives null without a reason', () => {
    expect(parseRefusal('{"fp":"f1"}')).toBeNull();
    expect(parseRefusal('blacklisted')).toBeNull();
  });
});

describe('agent queue snapshot (type 310): JSON { queue, sessions, online }', () => {
  it('reads entries and skips malformed ones', () => {
    expect(
      parseAgentQueue('{"queue":[{"clientId":"c1","name":"V","since":5,"position":1},{"name":"x"}],"sessions":[{"sessionId":"s","clientId":"c2","since":"7"},{"clientId":"c3"}],"online":2}'),
    ).toEqual({
      queue: [{ clientId: 'c1', name: 'V', since: 5, position: 1 }],
      sessions: [{ sessionId: 's', clientId: 'c2', name: 'c2', since: 7 }],
      online: 2,
    });
  });

  it('gives null for content that is not an object', () => {
    expect(parseAgentQueue('[]')).toBeNull();
  });
});

describe('isChatType: the types shown in a conversation', () => {
  it('shows text, image, file, video and robot text', () => {
    for (const t of [100, 101, 102, 103, 200]) expect(isChatType(t)).toBe(true);
  });

  it('passes unknown types from 100 up through (protocol §5)', () => {
    for (const t of [106, 202, 399, 402, 600]) expect(isChatType(t)).toBe(true);
  });

  it('hides receipts, typing signals, suggestions, session events, requests, agent queue, forms, refusals and control types', () => {
    for (const t of [1, 51, 60, 99, 104, 105, 201, 300, 301, 302, 310, 311, 400, 401, 500, 100.5, NaN]) expect(isChatType(t), String(t)).toBe(false);
  });
});

describe('messageTimeMs: "times or createTime" in ms', () => {
  it('prefers the server createTime', () => {
    expect(messageTimeMs({ createTime: 20, times: 10 })).toBe(20);
  });

  it('falls back to times, and reads date strings', () => {
    expect(messageTimeMs({ times: '15' })).toBe(15);
    expect(messageTimeMs({ createTime: 'bad', times: 3 })).toBe(3);
    expect(messageTimeMs({})).toBeUndefined();
  });
});
