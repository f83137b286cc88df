import { describe, expect, it } from 'vitest';
import { ApiError, isCancelledError, RequestCancelledError, RequestTimeoutError } from './errors.js';

describe('ApiError carries the envelope code, data and HTTP status', () => {
  it('keeps every field', () => {
    const e = new ApiError({ code: 2002, message: 'already rated', data: { a: 1 }, status: 200 });
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ name: 'ApiError', code: 2002, message: 'already rated', data: { a: 1 }, status: 200 });
  });
  it('has no status when no response was received', () => {
    expect(new ApiError({ code: -1, message: 'x' }).status).toBeUndefined();
  });
});

describe('a cancelled request is distinguishable from every other error', () => {
  it('recognizes RequestCancelledError and errors of that name', () => {
    expect(isCancelledError(new RequestCancelledError())).toBe(true);
    const foreign = new Error('x');
    foreign.name = 'RequestCancelledError';
    expect(isCancelledError(foreign)).toBe(true);
  });
  it('does not mistake other errors for cancellations', () => {
    expect(isCancelledError(new Error('Request cancelled'))).toBe(false);
    expect(isCancelledError(new ApiError({ code: 1, message: 'm' }))).toBe(false);
    expect(isCancelledError('RequestCancelledError')).toBe(false);
    expect(isCancelledError(undefined)).toBe(false);
  });
  it('takes a custom message', () => {
    expect(new RequestCancelledError('Upload cancelled').message).toBe('Upload cancelled');
  });
});

describe("A message containing 'timeout' shows the timeout notice", () => {
  it('the timeout error message contains timeout and names the delay', () => {
    const e = new RequestTimeoutError(50_000);
    expect(e.message).toContain('timeout');
    expect(e.message).toContain('50000');
    expect(e.timeout).toBe(50_000);
  });
});
