/**
 * The statements of a merge (protocol §3b.4, `MemberRepo.mergeVisitor`), written once for
 * both stores: SQL that SQLite (3.33 or later: `UPDATE ... FROM`, window functions) and PostgreSQL
 * both run, with the named parameters `$from`, `$into`, `$keep` and `$now`. SQLite binds them by
 * name; PostgreSQL gets them numbered by {@link numberedMergeStep}. Run in this order, in one
 * transaction.
 * @module
 */

/** One statement of the merge, and the table whose changed rows it counts under (if any). */
export interface MergeStep {
  /** The table the counted rows belong to, or undefined for a step that is not counted. */
  table: string | undefined;
  /** The SQL, with `$from`, `$into`, `$keep`, `$now`. */
  sql: string;
}

/** The merge's parameters. */
export interface MergeParams {
  /** The anonymous visitor id merged away. */
  from: string;
  /** The member's visitor id. */
  into: string;
  /** The key session of the merging connect (bound to `into`). */
  keep: string;
  /** Now (ms): ends `from`'s open sessions that would collide. */
  now: number;
}

const conv = (who: string): string => `'c:' || CAST(${who} AS TEXT) || '|' || mch_id || '|' || platform_id`;

/** The steps, in order. */
export const MERGE_STEPS: readonly MergeStep[] = [
  // messages of `from`'s conversations follow the member's own: first a block of seq numbers is
  // reserved on the member's counters (the upsert locks them until the end of the transaction, so a
  // message stored meanwhile on another node takes the number after the block), then used in order
  {
    table: undefined,
    sql: `INSERT INTO conversation_seq (conv, seq)
          SELECT ${conv('$into')}, COUNT(*) FROM messages WHERE client_id = $from AND is_group = 0 GROUP BY mch_id, platform_id
          ON CONFLICT (conv) DO UPDATE SET seq = conversation_seq.seq + excluded.seq`,
  },
  {
    table: undefined,
    sql: `UPDATE messages SET seq = (SELECT c.seq FROM conversation_seq c
            WHERE c.conv = 'c:' || CAST($into AS TEXT) || '|' || messages.mch_id || '|' || messages.platform_id) - r.total + r.n
          FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY mch_id, platform_id ORDER BY create_time, id) AS n,
                  COUNT(*) OVER (PARTITION BY mch_id, platform_id) AS total
                FROM messages WHERE client_id = $from AND is_group = 0) r
          WHERE messages.id = r.id`,
  },
  {
    table: 'conversation_seq',
    sql: `DELETE FROM conversation_seq WHERE conv IN (
            SELECT ${conv('$from')} FROM messages WHERE client_id = $from
            UNION SELECT ${conv('$from')} FROM sessions WHERE client_id = $from)`,
  },
  {
    table: 'messages',
    sql: `UPDATE messages SET client_id = $into,
            from_id = CASE WHEN from_id = $from THEN $into ELSE from_id END,
            to_id = CASE WHEN to_id = $from THEN $into ELSE to_id END
          WHERE client_id = $from`,
  },
  { table: 'messages', sql: 'UPDATE messages SET from_id = $into WHERE is_group = 1 AND from_id = $from' },
  // one open session per conversation: `from`'s gives way to the member's
  {
    table: undefined,
    sql: `UPDATE sessions SET state = 'ended', ended_at = $now, closed_at = $now
          WHERE client_id = $from AND state <> 'ended' AND EXISTS (
            SELECT 1 FROM sessions s2 WHERE s2.client_id = $into AND s2.mch_id = sessions.mch_id
              AND s2.platform_id = sessions.platform_id AND s2.state <> 'ended')`,
  },
  { table: 'sessions', sql: 'UPDATE sessions SET client_id = $into WHERE client_id = $from' },
  { table: 'complaints', sql: 'UPDATE complaints SET client_id = $into WHERE client_id = $from' },
  { table: 'leave_messages', sql: 'UPDATE leave_messages SET client_id = $into WHERE client_id = $from' },
  { table: 'uploads', sql: 'UPDATE uploads SET client_key = $into WHERE client_key = $from' },
  { table: 'uploaded_files', sql: 'UPDATE uploaded_files SET owner = $into WHERE owner = $from' },
  {
    table: undefined,
    sql: `INSERT INTO upload_usage (identity, day, bytes) SELECT $into, day, bytes FROM upload_usage WHERE identity = $from
          ON CONFLICT (identity, day) DO UPDATE SET bytes = upload_usage.bytes + excluded.bytes`,
  },
  { table: 'upload_usage', sql: 'DELETE FROM upload_usage WHERE identity = $from' },
  {
    table: undefined,
    sql: `DELETE FROM group_members WHERE client_id = $from
          AND group_id IN (SELECT group_id FROM group_members WHERE client_id = $into)`,
  },
  { table: 'group_members', sql: 'UPDATE group_members SET client_id = $into WHERE client_id = $from' },
  { table: undefined, sql: 'DELETE FROM group_reads WHERE client_id = $from AND fp IN (SELECT fp FROM group_reads WHERE client_id = $into)' },
  { table: 'group_reads', sql: 'UPDATE group_reads SET client_id = $into WHERE client_id = $from' },
  {
    table: undefined,
    sql: `DELETE FROM visitor_arrivals WHERE client_id = $from AND EXISTS (
            SELECT 1 FROM visitor_arrivals a WHERE a.client_id = $into AND a.mch_id = visitor_arrivals.mch_id
              AND a.platform_id = visitor_arrivals.platform_id)`,
  },
  { table: 'visitor_arrivals', sql: 'UPDATE visitor_arrivals SET client_id = $into WHERE client_id = $from' },
  // the retired id's key sessions end, but the merging connect's own, which now speaks for the member
  { table: 'key_sessions', sql: 'DELETE FROM key_sessions WHERE bound_to = $from AND salt_key <> $keep' },
  {
    table: undefined,
    sql: 'UPDATE key_sessions SET bound_to = $into WHERE salt_key = $keep AND (bound_to IS NULL OR bound_to = $from OR bound_to = $into)',
  },
  // a banned or blacklisted visitor stays so after logging in
  {
    table: undefined,
    sql: `UPDATE visitors SET
            banned = (banned OR EXISTS (SELECT 1 FROM visitors f WHERE f.client_id = $from AND f.banned)),
            blacklisted = (blacklisted OR EXISTS (SELECT 1 FROM visitors f WHERE f.client_id = $from AND f.blacklisted))
          WHERE client_id = $into`,
  },
  { table: 'visitors', sql: 'DELETE FROM visitors WHERE client_id = $from' },
];

/** A step's SQL for PostgreSQL: the names it uses numbered `$1`, `$2`, ... and their values in that order. */
export function numberedMergeStep(sql: string, p: MergeParams): { sql: string; values: unknown[] } {
  const names: (keyof MergeParams)[] = [];
  const text = sql.replace(/\$(from|into|keep|now)\b/g, (_, name: keyof MergeParams) => {
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return { sql: text, values: names.map((n) => p[n]) };
}

/** A step's named values for SQLite: only the names it uses. */
export function namedMergeValues(sql: string, p: MergeParams): Partial<MergeParams> {
  const used: Partial<MergeParams> = {};
  for (const name of ['from', 'into', 'keep', 'now'] as const) if (new RegExp(`\\$${name}\\b`).test(sql)) Object.assign(used, { [name]: p[name] });
  return used;
}
