import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime, formatReceiptTime, toMillis } from './time.js';

const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number => new Date(y, mo - 1, d, h, mi, s, ms).getTime();

describe('toMillis: wire times (numbers in ms, numeric strings, yyyy-mm-dd hh:mm:ss local)', () => {
  it('keeps millisecond numbers and never guesses seconds', () => {
    expect(toMillis(1_700_000_000_123)).toBe(1_700_000_000_123);
    expect(toMillis(1_700_000_000)).toBe(1_700_000_000);
  });

  it('reads numeric strings as ms', () => {
    expect(toMillis('1700000000123')).toBe(1_700_000_000_123);
    expect(toMillis(' 42 ')).toBe(42);
  });

  it('reads "yyyy-mm-dd hh:mm:ss" in local time', () => {
    expect(toMillis('2024-03-05 07:08:09')).toBe(local(2024, 3, 5, 7, 8, 9));
    expect(toMillis('2024-03-05T07:08:09')).toBe(local(2024, 3, 5, 7, 8, 9));
    expect(toMillis('2024/3/5 07:08')).toBe(local(2024, 3, 5, 7, 8));
    expect(toMillis('2024-03-05')).toBe(local(2024, 3, 5));
    expect(toMillis('2024-03-05 07:08:09.25')).toBe(local(2024, 3, 5, 7, 8, 9, 250));
  });

  it('keeps the zone of ISO strings that carry one', () => {
    expect(toMillis('2024-03-05T07:08:09Z')).toBe(Date.UTC(2024, 2, 5, 7, 8, 9));
    expect(toMillis('2024-03-05T07:08:09+08:00')).toBe(Date.UTC(2024, 2, 4, 23, 8, 9));
  });

  it('gives undefined for unreadable input instead of throwing', () => {
    for (const bad of [undefined, null, '', '  ', 'yesterday', NaN, Infinity, '2024-02-30 00:00:00', '2023-02-29', '2024-13-01', '2024-01-01 24:00:00', '2024-01-01 10:60:00']) {
      expect(toMillis(bad as never)).toBeUndefined();
    }
    expect(toMillis({} as never)).toBeUndefined();
  });

  it('accepts leap days and Date objects', () => {
    expect(toMillis('2024-02-29 12:00:00')).toBe(local(2024, 2, 29, 12));
    expect(toMillis(new Date(5))).toBe(5);
    expect(toMillis(new Date(NaN))).toBeUndefined();
  });
});

describe('formatDateTime: "Time display: yyyy-mm-dd hh:mm:ss"', () => {
  it('is zero-padded and on a 24-hour clock', () => {
    expect(formatDateTime(local(2024, 1, 2, 3, 4, 5))).toBe('2024-01-02 03:04:05');
    expect(formatDateTime(local(2024, 12, 31, 23, 59, 58))).toBe('2024-12-31 23:59:58');
  });

  it('round-trips the wire string format', () => {
    expect(formatDateTime('2024-07-08 19:20:21')).toBe('2024-07-08 19:20:21');
  });

  it('gives the fallback for an unreadable time', () => {
    expect(formatDateTime('nope')).toBe('');
    expect(formatDateTime(undefined, '-')).toBe('-');
  });
});

describe('formatReceiptTime: "HH:mm:ss when the date is today, otherwise yyyy-MM-dd HH:mm:ss"', () => {
  const now = local(2024, 5, 6, 12, 0, 0);

  it('shows only the time for a time earlier today', () => {
    expect(formatReceiptTime(local(2024, 5, 6, 0, 0, 1), now)).toBe('00:00:01');
    expect(formatReceiptTime(local(2024, 5, 6, 23, 59, 59), now)).toBe('23:59:59');
  });

  it('shows the full date for another day', () => {
    expect(formatReceiptTime(local(2024, 5, 5, 23, 59, 59), now)).toBe('2024-05-05 23:59:59');
    expect(formatReceiptTime(local(2023, 5, 6, 8, 0, 0), now)).toBe('2023-05-06 08:00:00');
  });

  it('gives the fallback for an unreadable time', () => {
    expect(formatReceiptTime('??', now, 'n/a')).toBe('n/a');
  });
});

describe('times are shown in local time (here: TZ=Asia/Shanghai, UTC+8)', () => {
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.TZ;
    process.env.TZ = 'Asia/Shanghai';
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  it('formats a UTC instant in the local zone', () => {
    expect(formatDateTime(Date.UTC(2024, 0, 1, 16, 0, 0))).toBe('2024-01-02 00:00:00');
  });

  it('reads a wire date string as local time', () => {
    expect(toMillis('2024-01-02 00:00:00')).toBe(Date.UTC(2024, 0, 1, 16, 0, 0));
  });

  it('decides "today" by the local calendar day', () => {
    const now = Date.UTC(2024, 0, 1, 17, 0, 0); // 2024-01-02 01:00 local
    expect(formatReceiptTime(Date.UTC(2024, 0, 1, 15, 59, 59), now)).toBe('2024-01-01 23:59:59');
    expect(formatReceiptTime(Date.UTC(2024, 0, 1, 16, 0, 0), now)).toBe('00:00:00');
  });
});
