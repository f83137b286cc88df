/**
 * Reading environment variables: the error a bad value raises and the readers of integers and
 * switches that every section of the configuration (`config.ts`) uses.
 * @module
 */

/** The environment-variable names read by `loadConfig` (`config.ts`). */
export type EnvLike = Readonly<Record<string, string | undefined>>;

/** Raised when an environment variable holds a value that cannot be used. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Runs a section's own parser and raises what it throws as a {@link ConfigError} (same message).
 * @internal
 */
export function asConfigError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The integer in `env[name]`, or `fallback` when it is unset or blank.
 * @throws ConfigError when it is not an integer between `min` and `max`
 * @internal
 */
export function intVar(env: EnvLike, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

/**
 * The switch in `env[name]` (`1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off`), or `fallback`
 * when it is unset or blank.
 * @throws ConfigError for any other value
 * @internal
 */
export function boolVar(env: EnvLike, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name] ?? ''}"`);
}
