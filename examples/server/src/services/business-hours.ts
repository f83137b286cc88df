/**
 * Business hours: a merchant's opening hours by weekday in its own IANA time zone, and the two
 * questions asked of them (open now? when next open?). Pure functions over a time in ms; local
 * weekday and time come from `Intl.DateTimeFormat`, so daylight saving changes are the zone's.
 *
 * ```json
 * { "timeZone": "Asia/Shanghai", "days": { "mon": [["09:00", "18:00"]], "sat": [["22:00", "02:00"]] } }
 * ```
 *
 * A range is `[from, to)` in local wall time (`HH:MM`, `24:00` allowed as an end). A range whose
 * end is not after its start runs overnight: it belongs to the day it starts on and ends the next
 * morning. A day not listed is closed. No hours at all means always open.
 * @module
 */

/** The weekday keys, Sunday first (the order of `Date#getDay`). */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** A weekday key. */
export type Weekday = (typeof WEEKDAYS)[number];

/** One opening range of local wall time, `[from, to)`: `HH:MM` each (`to` may be `24:00`). */
export type HoursRange = readonly [from: string, to: string];

/** A merchant's business hours. */
export interface BusinessHours {
  /** The IANA time zone the hours are in (`Asia/Shanghai`, `Europe/Berlin`). */
  readonly timeZone: string;
  /** The opening ranges per weekday; a weekday not listed is closed. */
  readonly days: Readonly<Partial<Record<Weekday, readonly HoursRange[]>>>;
}

/** Raised for hours that cannot be used (a clear message, never a crash later). */
export class HoursError extends Error {
  override name = 'HoursError';
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/;
const MINUTE_MS = 60_000;
/** How far ahead {@link nextOpenAt} looks (a week and a day covers every weekly pattern). */
const LOOKAHEAD_MINUTES = 8 * 24 * 60;

/** Minutes since local midnight of `HH:MM`. */
function minutesOf(time: string): number {
  const [h = '0', m = '0'] = time.split(':');
  return Number(h) * 60 + Number(m);
}

/**
 * Checks and copies business hours from untrusted JSON (config, the admin command).
 * @throws HoursError naming what is wrong.
 */
export function parseBusinessHours(value: unknown): BusinessHours {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HoursError('hours must be an object { timeZone, days }');
  const { timeZone, days } = value as Record<string, unknown>;
  if (typeof timeZone !== 'string' || timeZone === '') throw new HoursError('hours need a timeZone (an IANA name such as Asia/Shanghai)');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw new HoursError(`unknown time zone "${timeZone}"`);
  }
  if (typeof days !== 'object' || days === null || Array.isArray(days)) throw new HoursError('hours need days: { mon: [["09:00", "18:00"]], ... }');
  const out: Partial<Record<Weekday, HoursRange[]>> = {};
  for (const [day, ranges] of Object.entries(days)) {
    if (!(WEEKDAYS as readonly string[]).includes(day)) throw new HoursError(`unknown weekday "${day}" (use ${WEEKDAYS.join(', ')})`);
    if (!Array.isArray(ranges)) throw new HoursError(`${day}: a list of ["HH:MM", "HH:MM"] ranges`);
    out[day as Weekday] = ranges.map((range: unknown) => {
      if (!Array.isArray(range) || range.length !== 2 || !range.every((t) => typeof t === 'string' && TIME.test(t))) {
        throw new HoursError(`${day}: each range is ["HH:MM", "HH:MM"], got ${JSON.stringify(range)}`);
      }
      const [from, to] = range as [string, string];
      if (from === '24:00') throw new HoursError(`${day}: a range cannot start at 24:00`);
      if (from === to) throw new HoursError(`${day}: the range ${from}-${to} is empty`);
      return [from, to] as const;
    });
  }
  return { timeZone, days: out };
}

/**
 * Reads hours by merchant id (`MERCHANT_HOURS`): JSON text of an object from merchant id (or `*`)
 * to hours; empty text is none.
 * @param source - what the text is called in errors
 * @throws HoursError naming the merchant and what is wrong.
 */
export function parseHoursByMerchant(text: string, source = 'MERCHANT_HOURS'): Record<string, BusinessHours> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HoursError(`${source} must be JSON: { "<mchId>" or "*": { "timeZone": "Asia/Shanghai", "days": { "mon": [["09:00", "18:00"]] } } }`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HoursError(`${source} must be a JSON object keyed by merchant id (or "*")`);
  const out: Record<string, BusinessHours> = {};
  for (const [mchId, hours] of Object.entries(value)) {
    try {
      out[mchId] = parseBusinessHours(hours);
    } catch (error) {
      throw new HoursError(`${source} "${mchId}": ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return out;
}

/** A local wall time: weekday index (0 = Sunday) and minutes since midnight. */
interface LocalTime {
  weekday: number;
  minutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The weekday and minute of `at` in `timeZone`. */
export function localTimeOf(at: number, timeZone: string): LocalTime {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, format);
  }
  const parts = format.formatToParts(at);
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = WEEKDAYS.indexOf(part('weekday').toLowerCase() as Weekday);
  return { weekday, minutes: Number(part('hour')) * 60 + Number(part('minute')) };
}

/** Whether the ranges of one weekday, and the overnight tails of the day before, cover `local`. */
function covers(hours: BusinessHours, local: LocalTime): boolean {
  const today = hours.days[WEEKDAYS[local.weekday] ?? 'sun'] ?? [];
  const yesterday = hours.days[WEEKDAYS[(local.weekday + 6) % 7] ?? 'sun'] ?? [];
  for (const [from, to] of today) {
    const start = minutesOf(from);
    const end = minutesOf(to);
    if (end > start ? local.minutes >= start && local.minutes < end : local.minutes >= start) return true;
  }
  for (const [from, to] of yesterday) {
    const start = minutesOf(from);
    const end = minutesOf(to);
    if (end <= start && local.minutes < end) return true;
  }
  return false;
}

/** Whether the merchant is open at `at` (ms); no hours means always open. */
export function isOpenAt(hours: BusinessHours | undefined, at: number): boolean {
  if (!hours) return true;
  return covers(hours, localTimeOf(at, hours.timeZone));
}

/** Wall minutes from `local` to the next range start or end of its day, or to midnight (at least 1). */
function minutesToNextBoundary(hours: BusinessHours, local: LocalTime): number {
  const today = hours.days[WEEKDAYS[local.weekday] ?? 'sun'] ?? [];
  const yesterday = hours.days[WEEKDAYS[(local.weekday + 6) % 7] ?? 'sun'] ?? [];
  const marks = [24 * 60, ...today.flat().map(minutesOf), ...yesterday.map(([, to]) => minutesOf(to))];
  let best = 24 * 60 - local.minutes;
  for (const mark of marks) if (mark > local.minutes && mark - local.minutes < best) best = mark - local.minutes;
  return Math.max(1, best);
}

/**
 * When the open/closed state next changes after `at` (ms, on a minute), looking up to eight days
 * ahead; null when it never changes (no hours, or no range at all). It jumps from boundary to
 * boundary of wall time and, where a daylight saving shift made it overshoot, bisects back to
 * the first minute of the change: a few dozen time-zone lookups, not one per minute.
 */
export function nextChangeAt(hours: BusinessHours | undefined, at: number): number | null {
  if (!hours || Object.values(hours.days).every((ranges) => ranges.length === 0)) return null;
  const open = isOpenAt(hours, at);
  const limit = at + LOOKAHEAD_MINUTES * MINUTE_MS;
  let t = Math.floor(at / MINUTE_MS) * MINUTE_MS;
  while (t < limit) {
    const next = t + minutesToNextBoundary(hours, localTimeOf(t, hours.timeZone)) * MINUTE_MS;
    if (isOpenAt(hours, next) !== open) {
      let lo = t;
      let hi = next;
      while (hi - lo > MINUTE_MS) {
        const mid = lo + Math.floor((hi - lo) / MINUTE_MS / 2) * MINUTE_MS;
        if (isOpenAt(hours, mid) !== open) hi = mid;
        else lo = mid;
      }
      return hi;
    }
    t = next;
  }
  return null;
}

/**
 * When the merchant next opens: `at` itself when open now, else the first minute it opens; null
 * when it never opens within eight days (no range at all).
 */
export function nextOpenAt(hours: BusinessHours | undefined, at: number): number | null {
  if (isOpenAt(hours, at)) return at;
  return nextChangeAt(hours, at);
}
