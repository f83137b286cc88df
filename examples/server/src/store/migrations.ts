/**
 * SQLite schema migrations, applied in order at start-up. The `schema_version` table holds the
 * number of the last applied migration. Never edit a released migration: append a new one.
 * @module
 */

import type Database from 'better-sqlite3';

/** The migrations; index + 1 is the version each one brings the schema to. */
export const MIGRATIONS: readonly string[] = [
  // 1: the initial schema
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE key_sessions (
    salt_key TEXT PRIMARY KEY,
    request_key TEXT NOT NULL UNIQUE,
    aes_key TEXT NOT NULL,
    token TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_used INTEGER NOT NULL
  );
  CREATE INDEX key_sessions_last_used ON key_sessions (last_used);
  CREATE TABLE merchants (
    mch_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    kefu_avatar2 TEXT NOT NULL,
    extra TEXT NOT NULL DEFAULT '{}'
  );
  CREATE TABLE platforms (
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    name TEXT NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (mch_id, platform_id)
  );
  CREATE TABLE visitors (
    client_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    avatar TEXT NOT NULL,
    language TEXT NOT NULL,
    blacklisted INTEGER NOT NULL DEFAULT 0,
    banned INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    last_seen INTEGER NOT NULL
  );
  CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    state TEXT NOT NULL,
    agent_id TEXT,
    created_at INTEGER NOT NULL,
    queued_at INTEGER,
    accepted_at INTEGER,
    ended_at INTEGER,
    score INTEGER,
    remark TEXT
  );
  CREATE INDEX sessions_client ON sessions (client_id, mch_id, platform_id, created_at);
  CREATE INDEX sessions_state ON sessions (state, queued_at);
  CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
    is_read INTEGER NOT NULL DEFAULT 0,
    robot INTEGER NOT NULL DEFAULT 0,
    is_group INTEGER NOT NULL DEFAULT 0,
    create_time INTEGER NOT NULL,
    cm INTEGER
  );
  CREATE INDEX messages_conversation ON messages (client_id, mch_id, platform_id, create_time);
  CREATE INDEX messages_group ON messages (group_id, create_time);
  CREATE TABLE group_reads (
    fp TEXT NOT NULL,
    client_id TEXT NOT NULL,
    read_at INTEGER NOT NULL,
    PRIMARY KEY (fp, client_id)
  );
  CREATE TABLE groups (
    group_id TEXT PRIMARY KEY,
    mch_id TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    avatar TEXT NOT NULL,
    notice TEXT NOT NULL,
    open INTEGER NOT NULL DEFAULT 1
  );
  CREATE TABLE group_members (
    group_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    name TEXT NOT NULL,
    avatar TEXT NOT NULL,
    role TEXT NOT NULL,
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (group_id, client_id)
  );
  CREATE TABLE faq_categories (
    id TEXT PRIMARY KEY,
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    language TEXT NOT NULL,
    name TEXT NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE faq_questions (
    id TEXT PRIMARY KEY,
    category_id TEXT NOT NULL,
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    language TEXT NOT NULL,
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
    occurred_at INTEGER NOT NULL,
    images TEXT NOT NULL,
    video TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE leave_messages (
    fp TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    contact TEXT NOT NULL,
    content TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE uploads (
    upload_id TEXT PRIMARY KEY,
    client_key TEXT NOT NULL,
    file_name TEXT NOT NULL,
    file_size INTEGER NOT NULL,
    mime TEXT NOT NULL,
    chunk_size INTEGER NOT NULL,
    chunk_count INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    file_url TEXT
  );
  CREATE INDEX uploads_resume ON uploads (client_key, file_name, file_size, mime);
  CREATE TABLE entry_links (param TEXT PRIMARY KEY, raw TEXT NOT NULL);
  `,
  // 2: an agent's active sessions are read on every queue snapshot
  `
  CREATE INDEX sessions_agent ON sessions (agent_id, state);
  `,
  // 3: identity binding (protocol §3a), agents kept in the store, per-identity upload quota
  `
  ALTER TABLE visitors ADD COLUMN secret_hash TEXT;
  ALTER TABLE key_sessions ADD COLUMN bound_to TEXT;
  CREATE INDEX sessions_agent_client ON sessions (agent_id, client_id);
  CREATE TABLE agents (
    account TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE upload_usage (
    identity TEXT NOT NULL,
    day TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    PRIMARY KEY (identity, day)
  );
  `,
  // 4: agent session tokens (a desk keeps its login across reloads; only the token's hash is kept)
  `
  CREATE TABLE agent_tokens (
    token_hash TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX agent_tokens_account ON agent_tokens (account);
  `,
  // 5: a per-conversation sequence (docs/protocol.md §4): gap-fill and order that do not depend on
  // the nodes' clocks agreeing. Existing messages are numbered in their stored order.
  `
  ALTER TABLE messages ADD COLUMN seq INTEGER;
  CREATE TABLE conversation_seq (conv TEXT PRIMARY KEY, seq INTEGER NOT NULL);
  UPDATE messages SET seq = (
    SELECT r.n FROM (
      SELECT id, ROW_NUMBER() OVER (
        PARTITION BY CASE WHEN is_group = 1 THEN 'g:' || IFNULL(group_id, '') ELSE 'c:' || IFNULL(client_id, '') || '|' || mch_id || '|' || platform_id END
        ORDER BY create_time, id) AS n
      FROM messages) r
    WHERE r.id = messages.id);
  INSERT INTO conversation_seq (conv, seq)
    SELECT CASE WHEN is_group = 1 THEN 'g:' || IFNULL(group_id, '') ELSE 'c:' || IFNULL(client_id, '') || '|' || mch_id || '|' || platform_id END, MAX(seq)
    FROM messages GROUP BY 1;
  CREATE INDEX messages_conversation_seq ON messages (client_id, mch_id, platform_id, seq);
  CREATE INDEX messages_group_seq ON messages (group_id, seq);
  `,
  // 6: one open session per conversation, kept by the database (two nodes starting one at the
  // same moment): of open sessions found twice, the older ones are ended first
  `
  UPDATE sessions SET state = 'ended', ended_at = COALESCE(ended_at, created_at)
  WHERE state <> 'ended' AND EXISTS (
    SELECT 1 FROM sessions newer
    WHERE newer.client_id = sessions.client_id AND newer.mch_id = sessions.mch_id AND newer.platform_id = sessions.platform_id
      AND newer.state <> 'ended'
      AND (newer.created_at > sessions.created_at OR (newer.created_at = sessions.created_at AND newer.rowid > sessions.rowid)));
  CREATE UNIQUE INDEX sessions_one_open ON sessions (client_id, mch_id, platform_id) WHERE state <> 'ended';
  `,
  // 7: business hours per merchant (services/business-hours.ts) and the latest accepts, which
  // the queue's estimated wait is computed from
  `
  CREATE TABLE merchant_hours (
    mch_id TEXT PRIMARY KEY,
    hours TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX sessions_accepted_at ON sessions (accepted_at) WHERE accepted_at IS NOT NULL;
  `,
  // 8: agent status (available / away, kept across reconnects), capacity set by the admin command
  // (NULL: from the config) and the last assignment (routing's "longest idle" tie-break)
  `
  CREATE TABLE agent_routing (
    agent_id TEXT PRIMARY KEY,
    status TEXT NOT NULL DEFAULT 'available',
    capacity INTEGER,
    last_assigned_at INTEGER
  );
  `,
  // 9: canned replies per merchant; ended conversations listed newest first and their messages by session
  `
  CREATE TABLE canned_replies (
    id TEXT PRIMARY KEY,
    mch_id TEXT NOT NULL,
    title TEXT NOT NULL,
    text TEXT NOT NULL,
    shortcut TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX canned_replies_shortcut ON canned_replies (mch_id, shortcut);
  CREATE INDEX sessions_ended ON sessions (state, ended_at);
  CREATE INDEX messages_session ON messages (session_id);
  `,
  // 10: what a visitor arrived with at a platform (entry-link parameters, the page's query), for the desk's context panel
  `
  CREATE TABLE visitor_arrivals (
    client_id TEXT NOT NULL,
    mch_id TEXT NOT NULL,
    platform_id TEXT NOT NULL,
    params TEXT NOT NULL,
    arrived_at INTEGER NOT NULL,
    PRIMARY KEY (client_id, mch_id, platform_id)
  );
  `,
  // 11: privacy (services/privacy.ts, services/retention.ts): every stored file with its owner, the
  // retention runs (one row per period: the claim that lets one node of a cluster run it), the
  // hashes of deleted visitor ids (refused for a while: clients holding one start afresh), and the
  // indices that find everything of one visitor and everything older than a cutoff
  `
  CREATE TABLE uploaded_files (
    stored_name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    size INTEGER NOT NULL,
    mime TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX uploaded_files_owner ON uploaded_files (owner);
  CREATE INDEX uploaded_files_created ON uploaded_files (created_at);
  CREATE TABLE deleted_visitors (
    id_hash TEXT PRIMARY KEY,
    deleted_at INTEGER NOT NULL
  );
  CREATE INDEX deleted_visitors_at ON deleted_visitors (deleted_at);
  CREATE TABLE retention_runs (
    period INTEGER PRIMARY KEY,
    node TEXT NOT NULL,
    cutoff INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    deleted TEXT NOT NULL DEFAULT '{}'
  );
  CREATE INDEX messages_create_time ON messages (create_time);
  CREATE INDEX messages_group_sender ON messages (from_id) WHERE is_group = 1;
  CREATE INDEX complaints_client ON complaints (client_id);
  CREATE INDEX complaints_created ON complaints (created_at);
  CREATE INDEX leave_messages_client ON leave_messages (client_id);
  CREATE INDEX leave_messages_created ON leave_messages (created_at);
  CREATE INDEX key_sessions_bound ON key_sessions (bound_to);
  CREATE INDEX group_members_client ON group_members (client_id);
  CREATE INDEX group_reads_client ON group_reads (client_id);
  `,
  // 12: the key of a server-made text that a client shows in its own language (the robot's greeting)
  `
  ALTER TABLE messages ADD COLUMN text_key TEXT;
  `,
  // 13: who ended a session, and whether its agent closed it on the desk: a desk shows its ended
  // conversations again after a reload until the agent closes them. Sessions that ended before
  // count as closed (the desks of that time dropped them on reload).
  `
  ALTER TABLE sessions ADD COLUMN ended_by TEXT;
  ALTER TABLE sessions ADD COLUMN closed_at INTEGER;
  UPDATE sessions SET closed_at = COALESCE(ended_at, created_at) WHERE state = 'ended';
  CREATE INDEX sessions_desk_ended ON sessions (agent_id, ended_at) WHERE state = 'ended' AND closed_at IS NULL;
  `,
  // 14: an agent kept in the store belongs to merchants (comma-separated ids); agents added
  // before belong to the demo merchant
  `
  ALTER TABLE agents ADD COLUMN merchants TEXT NOT NULL DEFAULT 'M1001';
  `,
  // 15: verified identity (protocol §3b): a merchant's member (mch_id, sub) has one stable visitor
  // id on every device; merchant secrets added with the admin command, sealed (AES-256-GCM) at rest
  `
  CREATE TABLE member_visitors (
    mch_id TEXT NOT NULL,
    sub TEXT NOT NULL,
    client_id TEXT NOT NULL UNIQUE,
    email TEXT,
    created_at INTEGER NOT NULL,
    verified_at INTEGER NOT NULL,
    PRIMARY KEY (mch_id, sub)
  );
  CREATE TABLE merchant_secrets (
    mch_id TEXT NOT NULL,
    secret_id TEXT NOT NULL,
    sealed TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (mch_id, secret_id)
  );
  `,
];

/**
 * Brings the database schema to the newest version, one transaction per migration.
 * @returns the schema version after migrating.
 * @throws Error when the database is newer than this server.
 */
export function migrate(db: Database.Database): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
  const row = db.prepare('SELECT version FROM schema_version LIMIT 1').get() as { version: number } | undefined;
  let version = row?.version ?? 0;
  if (row === undefined) db.prepare('INSERT INTO schema_version (version) VALUES (0)').run();
  if (version > MIGRATIONS.length) {
    throw new Error(`the database schema (version ${version}) is newer than this server (${MIGRATIONS.length})`);
  }
  const setVersion = db.prepare('UPDATE schema_version SET version = ?');
  while (version < MIGRATIONS.length) {
    const sql = MIGRATIONS[version] ?? '';
    db.transaction(() => {
      db.exec(sql);
      setVersion.run(version + 1);
    })();
    version += 1;
  }
  return version;
}
