/**
 * Time parsing and display (spec §3 "Time display").
 *
 * Every function here is pure and never throws: an unreadable time gives `undefined` (parsing) or
 * the caller's fallback (formatting). Dates are shown in the local time zone of the runtime.
 * @module
 */

/** A time as it travels on the wire: ms since the epoch, a numeric string, or a date string. */
export type TimeInput = number | string | Date | undefined | null;

/** `yyyy-mm-dd hh:mm:ss` (also `T` as separator, `/` as date separator, optional seconds and fraction). */
const LOCAL_DATE_TIME = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;

/** A zone designator at the end of an ISO string (`Z`, `+08:00`, `-0500`). */
const ZONE_SUFFIX = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Converts a wire time to milliseconds since the epoch.
 *
 * - numbers are taken as milliseconds (the protocol's unit, docs/protocol.md §3); a number is
 *   never guessed to be in seconds, so `1700000000` stays 1 700 000 000 ms;
 * - numeric strings (`"1700000000000"`) likewise;
 * - `yyyy-mm-dd hh:mm:ss` strings (and `yyyy-mm-dd`, `yyyy/mm/dd hh:mm`, with `T`) are read in
 *   **local** time, the way the server's display strings are meant;
 * - ISO strings with a zone (`2024-01-02T03:04:05Z`, `+08:00`) keep their zone;
 * - `Date` objects give their time.
 *
 * @returns the time in ms, or `undefined` for anything unreadable (empty, NaN, impossible dates
 * such as `2024-02-30`).
 */
export function toMillis(t: TimeInput): number | undefined {
  if (t === undefined || t === null) return undefined;
  if (typeof t === 'number') return Number.isFinite(t) ? t : undefined;
  if (t instanceof Date) {
    const ms = t.getTime();
    return Number.isFinite(ms) ? ms : undefined;
  }
  if (typeof t !== 'string') return undefined;
  const s = t.trim();
  if (s === '') return undefined;
  if (/^-?\d+(?:\.\d+)?$/.test(s)) {
    const n = Number(s);
    return Number.isFinite(n) ? n : undefined;
  }
  const m = LOCAL_DATE_TIME.exec(s);
  if (m) return localParts(m);
  if (ZONE_SUFFIX.test(s) && /^\d{4}-\d{2}-\d{2}T/.test(s)) {
    const ms = Date.parse(s);
    return Number.isFinite(ms) ? ms : undefined;
  }
  return undefined;
}

/** Builds a local time from the regex groups, rejecting impossible dates (2024-02-30, 25:00). */
function localParts(m: RegExpExecArray): number | undefined {
  const num = (i: number): number => {
    const g = m[i];
    if (g === undefined) return 0;
    return Number(i === 7 ? g.padEnd(3, '0') : g);
  };
  const year = num(1);
  const month = num(2);
  const day = num(3);
  const hour = num(4);
  const minute = num(5);
  const second = num(6);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  // A local time inside a daylight-saving gap does not exist; `Date` moves it forward, which is fine.
  const d = new Date(2000, month - 1, day, hour, minute, second, num(7));
  d.setFullYear(year); // `new Date(50, ...)` would mean 1950
  const ms = d.getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

/** Days in a month (1-based month). */
function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Two-digit zero padding. */
function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** `yyyy-mm-dd` of a local date. */
function datePart(d: Date): string {
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

/** `hh:mm:ss` (24 h) of a local date. */
function timePart(d: Date): string {
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/**
 * Formats a time as `yyyy-mm-dd hh:mm:ss` (24-hour clock, zero-padded, local time), the spec's
 * §3 display format.
 * @param t - any {@link TimeInput}
 * @param fallback - returned when `t` is unreadable (default `''`)
 * @example formatDateTime(new Date(2024, 0, 2, 3, 4, 5)) // '2024-01-02 03:04:05'
 */
export function formatDateTime(t: TimeInput, fallback = ''): string {
  const ms = toMillis(t);
  if (ms === undefined) return fallback;
  const d = new Date(ms);
  if (!Number.isFinite(d.getTime())) return fallback;
  return `${datePart(d)} ${timePart(d)}`;
}

/**
 * Formats a time the way the read-receipt code shows it (spec §3): `HH:mm:ss` when it falls on
 * the same local calendar day as `now`, otherwise `yyyy-MM-dd HH:mm:ss`.
 * @param t - any {@link TimeInput}
 * @param now - the current time in ms (pass the server clock's time to be exact)
 * @param fallback - returned when `t` is unreadable (default `''`)
 */
export function formatReceiptTime(t: TimeInput, now: number, fallback = ''): string {
  const ms = toMillis(t);
  if (ms === undefined) return fallback;
  const d = new Date(ms);
  if (!Number.isFinite(d.getTime())) return fallback;
  const today = new Date(now);
  return Number.isFinite(today.getTime()) && datePart(d) === datePart(today) ? timePart(d) : `${datePart(d)} ${timePart(d)}`;
}
