/**
 * Readers for payload fields: each one throws an {@link ApiError} (code 1001) naming the field.
 * @module
 */

import { ApiError, Code } from './envelope.js';

/** A decoded payload. */
export type Payload = Record<string, unknown>;

/** Requires a JSON object. */
export function asPayload(value: unknown, what = 'payload'): Payload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(Code.BadRequest, `${what} must be a JSON object`);
  }
  return value as Payload;
}

/** An optional string (numbers are accepted and turned into strings); '' when absent. */
export function optStr(p: Payload, key: string, max = 128): string {
  const value = p[key];
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') throw new ApiError(Code.BadRequest, `${key} must be a string`);
  const trimmed = value.trim();
  if (trimmed.length > max) throw new ApiError(Code.BadRequest, `${key} is longer than ${max} characters`);
  return trimmed;
}

/** A required, non-empty string. */
export function reqStr(p: Payload, key: string, max = 128): string {
  const value = optStr(p, key, max);
  if (value === '') throw new ApiError(Code.BadRequest, `${key} is required`);
  return value;
}

/** An optional integer within bounds (numeric strings accepted); undefined when absent. */
export function optInt(p: Payload, key: string, min: number, max: number): number | undefined {
  const raw = p[key];
  if (raw === undefined || raw === null || raw === '') return undefined;
  const value = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ApiError(Code.BadRequest, `${key} must be an integer between ${min} and ${max}`);
  }
  return value;
}

/** A required integer within bounds. */
export function reqInt(p: Payload, key: string, min: number, max: number): number {
  const value = optInt(p, key, min, max);
  if (value === undefined) throw new ApiError(Code.BadRequest, `${key} is required`);
  return value;
}

/** A time in ms: a number, a numeric string, or a date string. */
export function reqTime(p: Payload, key: string): number {
  const raw = p[key];
  const value =
    typeof raw === 'number' ? raw : typeof raw === 'string' ? (/^\d+$/.test(raw.trim()) ? Number(raw) : Date.parse(raw)) : NaN;
  if (!Number.isFinite(value) || value < 0) throw new ApiError(Code.BadRequest, `${key} must be a time (ms or a date)`);
  return Math.trunc(value);
}
