/**
 * Business hours as a pure function of a time: weekdays in the merchant's zone, overnight ranges,
 * daylight saving changes, and when the merchant next opens. Fixed dates only.
 */
import { describe, expect, it } from 'vitest';
import {
  HoursError,
  isOpenAt,
  localTimeOf,
  nextChangeAt,
  nextOpenAt,
  parseBusinessHours,
  type BusinessHours,
} from '../../src/services/business-hours.js';

const at = (iso: string): number => Date.parse(iso);

const SHANGHAI: BusinessHours = parseBusinessHours({
  timeZone: 'Asia/Shanghai',
  days: { mon: [['09:00', '12:00'], ['13:00', '18:00']], tue: [['09:00', '18:00']], wed: [['09:00', '18:00']], thu: [['09:00', '18:00']], fri: [['09:00', '18:00']] },
});

describe('open now: the weekday and wall time are the merchant\'s, not the server\'s', () => {
  it('Monday 2026-11-23 10:00 in Shanghai (02:00 UTC) is open; the lunch break and Saturday are closed', () => {
    expect(localTimeOf(at('2026-11-23T02:00:00Z'), 'Asia/Shanghai')).toEqual({ weekday: 1, minutes: 600 });
    expect(isOpenAt(SHANGHAI, at('2026-11-23T02:00:00Z'))).toBe(true);
    expect(isOpenAt(SHANGHAI, at('2026-11-23T04:30:00Z'))).toBe(false); // 12:30 local
    expect(isOpenAt(SHANGHAI, at('2026-11-28T02:00:00Z'))).toBe(false); // Saturday
  });

  it('Sunday 23:30 UTC is already Monday 07:30 in Shanghai: closed until 09:00, which nextOpenAt names', () => {
    const sundayEveningUtc = at('2026-11-22T23:30:00Z');
    expect(isOpenAt(SHANGHAI, sundayEveningUtc)).toBe(false);
    expect(nextOpenAt(SHANGHAI, sundayEveningUtc)).toBe(at('2026-11-23T01:00:00Z'));
  });

  it('a range is [from, to): open at 09:00, closed at 18:00', () => {
    expect(isOpenAt(SHANGHAI, at('2026-11-24T01:00:00Z'))).toBe(true);
    expect(isOpenAt(SHANGHAI, at('2026-11-24T10:00:00Z'))).toBe(false);
    expect(isOpenAt(SHANGHAI, at('2026-11-24T09:59:59Z'))).toBe(true);
  });

  it('no hours configured means always open, and nothing ever changes', () => {
    expect(isOpenAt(undefined, at('2026-11-28T02:00:00Z'))).toBe(true);
    expect(nextOpenAt(undefined, 5)).toBe(5);
    expect(nextChangeAt(undefined, 5)).toBeNull();
  });

  it('hours with no range at all are never open, and nextOpenAt says null', () => {
    const never = parseBusinessHours({ timeZone: 'UTC', days: {} });
    expect(isOpenAt(never, at('2026-11-23T12:00:00Z'))).toBe(false);
    expect(nextOpenAt(never, at('2026-11-23T12:00:00Z'))).toBeNull();
  });
});

describe('overnight ranges belong to the day they start on', () => {
  const night = parseBusinessHours({ timeZone: 'UTC', days: { fri: [['22:00', '02:00']] } });

  it('Friday 22:00 to Saturday 02:00 is open; Saturday 02:00 and Thursday 23:00 are closed', () => {
    expect(isOpenAt(night, at('2026-11-27T22:00:00Z'))).toBe(true);
    expect(isOpenAt(night, at('2026-11-28T01:59:00Z'))).toBe(true);
    expect(isOpenAt(night, at('2026-11-28T02:00:00Z'))).toBe(false);
    expect(isOpenAt(night, at('2026-11-26T23:00:00Z'))).toBe(false);
  });

  it('the next change from inside the night is its end; from Saturday noon it is next Friday 22:00', () => {
    expect(nextChangeAt(night, at('2026-11-27T23:10:30Z'))).toBe(at('2026-11-28T02:00:00Z'));
    expect(nextOpenAt(night, at('2026-11-28T12:00:00Z'))).toBe(at('2026-12-04T22:00:00Z'));
  });

  it('a range ending at 24:00 ends at midnight', () => {
    const late = parseBusinessHours({ timeZone: 'UTC', days: { mon: [['20:00', '24:00']] } });
    expect(isOpenAt(late, at('2026-11-23T23:59:00Z'))).toBe(true);
    expect(isOpenAt(late, at('2026-11-24T00:00:00Z'))).toBe(false);
    expect(nextChangeAt(late, at('2026-11-23T21:00:00Z'))).toBe(at('2026-11-24T00:00:00Z'));
  });
});

describe('daylight saving changes move the UTC instant, not the wall time', () => {
  const berlin = parseBusinessHours({ timeZone: 'Europe/Berlin', days: { sun: [['09:00', '17:00']], mon: [['09:00', '17:00']] } });

  it('Berlin opens at 09:00 local: 08:00 UTC in winter (CET), 07:00 UTC in summer (CEST)', () => {
    expect(isOpenAt(berlin, at('2026-03-22T08:00:00Z'))).toBe(true); // Sunday before the change, CET
    expect(isOpenAt(berlin, at('2026-03-22T07:30:00Z'))).toBe(false);
    expect(isOpenAt(berlin, at('2026-03-29T07:00:00Z'))).toBe(true); // the change is 2026-03-29 01:00 UTC
    expect(isOpenAt(berlin, at('2026-03-29T06:59:00Z'))).toBe(false);
  });

  it('asked on the night of the change (before it), the next opening is 09:00 CEST = 07:00 UTC', () => {
    expect(nextOpenAt(berlin, at('2026-03-28T23:00:00Z'))).toBe(at('2026-03-29T07:00:00Z'));
  });

  it('New York falls back on 2026-11-01: the overnight range still ends at 02:00 local (07:00 UTC)', () => {
    const ny = parseBusinessHours({ timeZone: 'America/New_York', days: { sat: [['22:00', '02:00']] } });
    expect(isOpenAt(ny, at('2026-11-01T05:30:00Z'))).toBe(true); // 01:30 EDT
    expect(isOpenAt(ny, at('2026-11-01T06:30:00Z'))).toBe(true); // 01:30 EST, the hour again
    expect(nextChangeAt(ny, at('2026-11-01T03:00:00Z'))).toBe(at('2026-11-01T07:00:00Z'));
  });
});

describe('bad hours get a clear error', () => {
  it.each([
    [null, /object/],
    [{ days: {} }, /timeZone/],
    [{ timeZone: 'Mars/Olympus', days: {} }, /unknown time zone "Mars\/Olympus"/],
    [{ timeZone: 'UTC', days: { funday: [] } }, /unknown weekday "funday"/],
    [{ timeZone: 'UTC', days: { mon: [['9:00', '18:00']] } }, /"HH:MM"/],
    [{ timeZone: 'UTC', days: { mon: [['10:00', '10:00']] } }, /empty/],
    [{ timeZone: 'UTC', days: { mon: 'all day' } }, /list/],
  ])('%j is refused', (value, message) => {
    expect(() => parseBusinessHours(value)).toThrow(HoursError);
    expect(() => parseBusinessHours(value)).toThrow(message);
  });
});
