/**
 * PostgreSQL schema migrations, applied in order when a {@link PgStore} opens. The
 * `schema_version` table holds the number of the last applied migration. Never edit a released
 * migration: append a new one.
 *
 * Several nodes may start at once against one empty database: every node migrates inside one
 * transaction that first takes a transaction-scoped advisory lock, so exactly one of them applies
 * the migrations and the others, once the lock is theirs, find the schema current.
 *
 * The schema mirrors the SQLite one at its version 5 (see `migrations.ts`), with these choices:
 * times in ms are BIGINT (read back as JS numbers, see `pg-queryable.ts`), flags the interface
 * types as booleans are BOOLEAN, flags it types as numbers are SMALLINT, JSON is kept as TEXT so it
 * reads back exactly as written. Tables whose SQLite queries order by `rowid` get a `row_order`
 * identity column for the same insertion order. Text that is sorted by is `COLLATE "C"`, the
 * byte order SQLite sorts by, whatever the database's default collation.
 * @module
 */

import type pg from 'pg';

/** The key of the advisory lock every node takes while it migrates ('kefu' in ASCII). */
export const MIGRATION_LOCK_KEY = 0x6b656675;

/** The PostgreSQL migrations; index + 1 is the version each one brings the schema to. */
export const PG_MIGRATIONS: readonly string[] = [
  // 1: the initial schema (the SQLite schema as of its migration 5)
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE key_sessions (
    salt_key TEXT PRIMARY KEY,
    request_key TEXT NOT NULL UNIQUE,
    aes_key TEXT NOT NULL,
    token TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_used BIGINT NOT NULL,
    bound_to TEXT
  );
  CREATE INDEX key_sessions_last_used ON key_sessions (last_used);
  CREATE TABLE merchants (
    mch_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    kefu_avatar2 TEXT NOT NULL,
    extra TEXT NOT NULL DEFAULT '{}'
  );
  CREATE TABLE platforms (
    row_order BIGINT GENERATED ALWAYS AS IDENTITY,
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    name TEXT NOT NULL,
    enabled BOOLEAN NOT NULL DEFAULT TRUE,
    PRIMARY KEY (mch_id, platform_id)
  );
  CREATE TABLE visitors (
    client_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    avatar TEXT NOT NULL,
    language TEXT NOT NULL,
    blacklisted BOOLEAN NOT NULL DEFAULT FALSE,
    banned BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL,
    last_seen BIGINT NOT NULL,
    secret_hash TEXT
  );
  CREATE TABLE sessions (
    row_order BIGINT GENERATED ALWAYS AS IDENTITY,
    session_id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    state TEXT NOT NULL,
    agent_id TEXT,
    created_at BIGINT NOT NULL,
    queued_at BIGINT,
    accepted_at BIGINT,
    ended_at BIGINT,
    score INTEGER,
    remark TEXT
  );
  CREATE INDEX sessions_client ON sessions (client_id, mch_id, platform_id, created_at);
  CREATE INDEX sessions_state ON sessions (state, queued_at);
  CREATE INDEX sessions_agent ON sessions (agent_id, state);
  CREATE INDEX sessions_agent_client ON sessions (agent_id, client_id);
  CREATE TABLE messages (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    fp TEXT NOT NULL UNIQUE,
    type INTEGER NOT NULL,
    from_id TEXT NOT NULL,
    to_id TEXT NOT NULL,
    fn TEXT NOT NULL,
    tn TEXT NOT NULL,
    fa TEXT NOT NULL,
    ta TEXT NOT NULL,
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    client_id TEXT,
    group_id TEXT,
    session_id TEXT,
    data_content TEXT NOT NULL,
    is_read SMALLINT NOT NULL DEFAULT 0,
    robot SMALLINT NOT NULL DEFAULT 0,
    is_group SMALLINT NOT NULL DEFAULT 0,
    create_time BIGINT NOT NULL,
    cm BIGINT,
    seq BIGINT
  );
  CREATE INDEX messages_conversation ON messages (client_id, mch_id, platform_id, create_time);
  CREATE INDEX messages_group ON messages (group_id, create_time);
  CREATE INDEX messages_conversation_seq ON messages (client_id, mch_id, platform_id, seq);
  CREATE INDEX messages_group_seq ON messages (group_id, seq);
  CREATE INDEX messages_create_time ON messages (create_time);
  CREATE TABLE conversation_seq (conv TEXT PRIMARY KEY, seq BIGINT NOT NULL);
  CREATE TABLE group_reads (
    fp TEXT NOT NULL,
    client_id TEXT NOT NULL,
    read_at BIGINT NOT NULL,
    PRIMARY KEY (fp, client_id)
  );
  CREATE TABLE groups (
    group_id TEXT PRIMARY KEY,
    mch_id TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    avatar TEXT NOT NULL,
    notice TEXT NOT NULL,
    open BOOLEAN NOT NULL DEFAULT TRUE
  );
  CREATE TABLE group_members (
    group_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    name TEXT NOT NULL,
    avatar TEXT NOT NULL,
    role TEXT NOT NULL,
    joined_at BIGINT NOT NULL,
    PRIMARY KEY (group_id, client_id)
  );
  CREATE TABLE faq_categories (
    id TEXT COLLATE "C" PRIMARY KEY,
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    language TEXT NOT NULL,
    name TEXT NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE faq_questions (
    id TEXT COLLATE "C" PRIMARY KEY,
    category_id TEXT NOT NULL,
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    language TEXT COLLATE "C" NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    keywords TEXT NOT NULL DEFAULT '',
    sort INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX faq_questions_mch ON faq_questions (mch_id, platform_id, language);
  CREATE TABLE orders (
    mch_id TEXT NOT NULL,
    order_no TEXT NOT NULL,
    user_account TEXT NOT NULL,
    user_mch_id TEXT NOT NULL,
    amount TEXT NOT NULL,
    status TEXT NOT NULL,
    PRIMARY KEY (mch_id, order_no)
  );
  CREATE TABLE complaints (
    fp TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    account TEXT NOT NULL,
    description TEXT NOT NULL,
    occurred_at BIGINT NOT NULL,
    images TEXT NOT NULL,
    video TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX complaints_client ON complaints (client_id, created_at);
  CREATE TABLE leave_messages (
    fp TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    contact TEXT NOT NULL,
    content TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX leave_messages_client ON leave_messages (client_id, created_at);
  CREATE TABLE uploads (
    upload_id TEXT PRIMARY KEY,
    client_key TEXT NOT NULL,
    file_name TEXT NOT NULL,
    file_size BIGINT NOT NULL,
    mime TEXT NOT NULL,
    chunk_size BIGINT NOT NULL,
    chunk_count INTEGER NOT NULL,
    created_at BIGINT NOT NULL,
    file_url TEXT
  );
  CREATE INDEX uploads_resume ON uploads (client_key, file_name, file_size, mime);
  CREATE TABLE entry_links (param TEXT PRIMARY KEY, raw TEXT NOT NULL);
  CREATE TABLE agents (
    account TEXT COLLATE "C" PRIMARY KEY,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE upload_usage (
    identity TEXT NOT NULL,
    day TEXT COLLATE "C" NOT NULL,
    bytes BIGINT NOT NULL,
    PRIMARY KEY (identity, day)
  );
  CREATE TABLE agent_tokens (
    token_hash TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
  );
  CREATE INDEX agent_tokens_account ON agent_tokens (account);
  `,
  // 2: one open session per conversation, kept by the database (two nodes starting one at the
  // same moment): of open sessions found twice, the older ones are ended first
  `
  UPDATE sessions SET state = 'ended', ended_at = COALESCE(ended_at, created_at)
  WHERE state <> 'ended' AND EXISTS (
    SELECT 1 FROM sessions newer
    WHERE newer.client_id = sessions.client_id AND newer.mch_id = sessions.mch_id AND newer.platform_id = sessions.platform_id
      AND newer.state <> 'ended'
      AND (newer.created_at > sessions.created_at OR (newer.created_at = sessions.created_at AND newer.row_order > sessions.row_order)));
  CREATE UNIQUE INDEX sessions_one_open ON sessions (client_id, mch_id, platform_id) WHERE state <> 'ended';
  `,
  // 3: business hours per merchant and the latest accepts (SQLite's migration 7)
  `
  CREATE TABLE merchant_hours (
    mch_id TEXT PRIMARY KEY,
    hours TEXT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE INDEX sessions_accepted_at ON sessions (accepted_at) WHERE accepted_at IS NOT NULL;
  `,
  // 4: agent status (SQLite's migration 8: available / away, kept across reconnects), capacity set by the admin command
  // (NULL: from the config) and the last assignment (routing's "longest idle" tie-break)
  `
  CREATE TABLE agent_routing (
    agent_id TEXT PRIMARY KEY,
    status TEXT NOT NULL DEFAULT 'available',
    capacity INTEGER,
    last_assigned_at BIGINT
  );
  `,
  // 5 (SQLite's migration 9): canned replies per merchant; ended conversations listed newest first and their messages by session
  `
  CREATE TABLE canned_replies (
    id TEXT PRIMARY KEY,
    mch_id TEXT NOT NULL,
    title TEXT NOT NULL,
    text TEXT NOT NULL,
    shortcut TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE UNIQUE INDEX canned_replies_shortcut ON canned_replies (mch_id, shortcut);
  CREATE INDEX sessions_ended ON sessions (state, ended_at);
  CREATE INDEX messages_session ON messages (session_id);
  `,
  // 6 (SQLite's migration 10): what a visitor arrived with at a platform, for the desk's context panel
  `
  CREATE TABLE visitor_arrivals (
    client_id TEXT NOT NULL,
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    params TEXT NOT NULL,
    arrived_at BIGINT NOT NULL,
    PRIMARY KEY (client_id, mch_id, platform_id)
  );
  `,
  // 7 (SQLite's migration 11): privacy: every stored file with its owner, the retention runs (one
  // row per period: the claim that lets one node of the cluster run it), the hashes of deleted
  // visitor ids (refused for a while: clients holding one start afresh), and the indices that find
  // everything of one visitor and everything older than a cutoff (messages by time, complaints and
  // left messages by visitor are indexed since migration 1)
  `
  CREATE TABLE uploaded_files (
    stored_name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    size BIGINT NOT NULL,
    mime TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX uploaded_files_owner ON uploaded_files (owner);
  CREATE INDEX uploaded_files_created ON uploaded_files (created_at);
  CREATE TABLE deleted_visitors (
    id_hash TEXT PRIMARY KEY,
    deleted_at BIGINT NOT NULL
  );
  CREATE INDEX deleted_visitors_at ON deleted_visitors (deleted_at);
  CREATE TABLE retention_runs (
    period BIGINT PRIMARY KEY,
    node TEXT NOT NULL,
    cutoff BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    finished_at BIGINT,
    deleted TEXT NOT NULL DEFAULT '{}'
  );
  CREATE INDEX messages_group_sender ON messages (from_id) WHERE is_group = 1;
  CREATE INDEX complaints_created ON complaints (created_at);
  CREATE INDEX leave_messages_created ON leave_messages (created_at);
  CREATE INDEX key_sessions_bound ON key_sessions (bound_to);
  CREATE INDEX group_members_client ON group_members (client_id);
  CREATE INDEX group_reads_client ON group_reads (client_id);
  `,
  // 8 (SQLite's migration 12): the key of a server-made text that a client shows in its own language (the robot's greeting)
  `
  ALTER TABLE messages ADD COLUMN text_key TEXT;
  `,
  // 9 (SQLite's migration 13): who ended a session, and whether its agent closed it on the desk;
  // sessions that ended before count as closed
  `
  ALTER TABLE sessions ADD COLUMN ended_by TEXT;
  ALTER TABLE sessions ADD COLUMN closed_at BIGINT;
  UPDATE sessions SET closed_at = COALESCE(ended_at, created_at) WHERE state = 'ended';
  CREATE INDEX sessions_desk_ended ON sessions (agent_id, ended_at) WHERE state = 'ended' AND closed_at IS NULL;
  `,
  // 10 (SQLite's migration 14): an agent kept in the store belongs to merchants (comma-separated
  // ids); agents added before belong to the demo merchant
  `
  ALTER TABLE agents ADD COLUMN merchants TEXT NOT NULL DEFAULT 'M1001';
  `,
  // 11 (SQLite's migration 15): verified identity (protocol §3b): members' stable visitor ids,
  // merchant secrets sealed at rest
  `
  CREATE TABLE member_visitors (
    mch_id TEXT NOT NULL,
    sub TEXT NOT NULL,
    client_id TEXT NOT NULL UNIQUE,
    email TEXT,
    created_at BIGINT NOT NULL,
    verified_at BIGINT NOT NULL,
    PRIMARY KEY (mch_id, sub)
  );
  CREATE TABLE merchant_secrets (
    mch_id TEXT NOT NULL,
    secret_id TEXT NOT NULL,
    sealed TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (mch_id, secret_id)
  );
  `,
];

/**
 * Brings the database schema to the newest version: one transaction for all pending migrations,
 * serialised across nodes by {@link MIGRATION_LOCK_KEY}.
 * @param client - a connection of its own (not shared with other work while this runs).
 * @returns the schema version after migrating.
 * @throws Error when the database is newer than this server (nothing is changed then).
 */
export async function migratePg(client: pg.ClientBase): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    // Created under the lock: two nodes creating it at once would collide in the catalogue.
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const found = await client.query<{ version: number }>('SELECT version FROM schema_version LIMIT 1');
    const row = found.rows[0];
    let version = row?.version ?? 0;
    if (row === undefined) await client.query('INSERT INTO schema_version (version) VALUES (0)');
    if (version > PG_MIGRATIONS.length) {
      throw new Error(`the database schema (version ${version}) is newer than this server (${PG_MIGRATIONS.length})`);
    }
    while (version < PG_MIGRATIONS.length) {
      await client.query(PG_MIGRATIONS[version] ?? '');
      version += 1;
      await client.query('UPDATE schema_version SET version = $1', [version]);
    }
    await client.query('COMMIT');
    return version;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
