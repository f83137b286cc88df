/**
 * Routing settings read from the environment: `AUTO_ASSIGN` (off by default: agents accept
 * visitors by hand, as before), `AGENT_CAPACITY` (the conversations an agent serves at once,
 * default 3) and `AGENT_CAPACITIES` (per account, `alice:1,bob:5`).
 * @module
 */

/** How queued visitors reach agents. */
export interface RoutingConfig {
  /** `AUTO_ASSIGN`: the server gives the queue's head to the best available agent. */
  autoAssign: boolean;
  /** `AGENT_CAPACITY`: the capacity of an agent not named in {@link RoutingConfig.capacities}. */
  defaultCapacity: number;
  /** `AGENT_CAPACITIES`: capacity per account. */
  capacities: Readonly<Record<string, number>>;
}

/** The highest capacity accepted. */
export const MAX_CAPACITY = 1000;

/** Raised for an unusable routing variable (the caller turns it into its ConfigError). */
export class RoutingConfigError extends Error {
  override name = 'RoutingConfigError';
}

function capacityValue(name: string, raw: string): number {
  const value = Number(raw.trim());
  if (raw.trim() === '' || !Number.isInteger(value) || value < 0 || value > MAX_CAPACITY) {
    throw new RoutingConfigError(`${name} must be an integer between 0 and ${MAX_CAPACITY}, got "${raw}"`);
  }
  return value;
}

/**
 * Reads the routing settings.
 * @throws RoutingConfigError for a bad value
 */
export function parseRoutingConfig(env: Readonly<Record<string, string | undefined>>): RoutingConfig {
  const auto = (env['AUTO_ASSIGN'] ?? '').trim().toLowerCase();
  if (!['', '0', '1', 'true', 'false', 'yes', 'no', 'on', 'off'].includes(auto)) {
    throw new RoutingConfigError(`AUTO_ASSIGN must be true or false, got "${env['AUTO_ASSIGN'] ?? ''}"`);
  }
  const capacityRaw = env['AGENT_CAPACITY'] ?? '';
  const defaultCapacity = capacityRaw.trim() === '' ? 3 : capacityValue('AGENT_CAPACITY', capacityRaw);
  const capacities: Record<string, number> = {};
  for (const entry of (env['AGENT_CAPACITIES'] ?? '').split(',')) {
    if (entry.trim() === '') continue;
    const [account = '', value = '', ...rest] = entry.split(':');
    if (!/^[A-Za-z0-9_.-]+$/.test(account.trim()) || rest.length > 0) {
      throw new RoutingConfigError(`AGENT_CAPACITIES entries are "account:capacity", got "${entry.trim()}"`);
    }
    capacities[account.trim()] = capacityValue(`AGENT_CAPACITIES (${account.trim()})`, value);
  }
  return { autoAssign: ['1', 'true', 'yes', 'on'].includes(auto), defaultCapacity, capacities };
}

/** The capacity of an agent (`agent:<account>` user id). */
export function capacityOf(config: RoutingConfig, agentId: string): number {
  const account = agentId.startsWith('agent:') ? agentId.slice('agent:'.length) : agentId;
  return config.capacities[account] ?? config.defaultCapacity;
}
