import { describe, expect, it } from 'vitest';
import { findMessages } from './search-dialog.js';
import { localDateTimeMs, toLocalDateTime } from './records.js';

describe('spec §3 complaint: time of occurrence', () => {
  it('reads and writes datetime-local values in local time', () => {
    const ms = new Date(2024, 4, 1, 13, 45).getTime();
    expect(toLocalDateTime(ms)).toBe('2024-05-01T13:45');
    expect(localDateTimeMs('2024-05-01T13:45')).toBe(ms);
    expect(localDateTimeMs('yesterday')).toBeNaN();
    expect(localDateTimeMs('')).toBeNaN();
  });
});

describe('spec §2: the search box filters the loaded messages', () => {
  it('finds text messages holding the keyword, newest first, case-insensitively', () => {
    const list = [
      { type: 100, fp: 'a', dataContent: 'Deposit not arrived' },
      { type: 101, fp: 'b', dataContent: 'https://x/deposit.png' },
      { type: 200, fp: 'c', dataContent: 'Your DEPOSIT arrives soon' },
      { type: 100, fp: 'd', dataContent: 'thanks' },
    ];
    expect(findMessages(list, 'deposit').map((m) => m.fp)).toEqual(['c', 'a']);
    expect(findMessages(list, '  ')).toEqual([]);
  });
});
