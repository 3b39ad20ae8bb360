-- PostgreSQL twin of migrations/0008_table_changes.sql.
-- Several workers show one chat's tables (issue 35): every committed change leaves a row
-- (its events and notices as JSON, written in the commit's transaction), so whichever
-- worker draws the table message shows the same recent lines in version order, and a
-- change committed by a worker that died before showing it is shown by another one.
-- One worker at a time shows a chat (a lease in chat_owners); sends that are not edits
-- by version (the first table message, turn pings) carry a key in sent_keys; the calls
-- into a Telegram group take tokens from one bucket per group (telegram_group_budget).

CREATE TABLE table_changes (
    table_id    BIGINT NOT NULL,       -- tables.id
    version     BIGINT NOT NULL,       -- the table version the change produced
    chat_key    TEXT NOT NULL,         -- the table's chat key
    record      TEXT NOT NULL,         -- JSON: events, notices, hands, turn
    created_at  DOUBLE PRECISION NOT NULL, -- the database clock's seconds at the commit
    shown       SMALLINT NOT NULL DEFAULT 0,  -- 1 once the chat's owner has drawn it
    PRIMARY KEY (table_id, version)
);
CREATE INDEX table_changes_unshown ON table_changes (created_at) WHERE shown = 0;

CREATE TABLE chat_owners (
    chat_key    TEXT PRIMARY KEY,      -- a chat key "telegram:<chat>:<thread>"
    owner       TEXT NOT NULL,         -- the worker id that shows the chat
    until       DOUBLE PRECISION NOT NULL -- seconds (database clock) when the lease runs out
);

CREATE TABLE sent_keys (
    key         TEXT PRIMARY KEY,      -- "<platform>:<what>:<table>:<version>"
    state       TEXT NOT NULL,         -- 'new' or 'again' before the call, 'sent' after it
    created_at  DOUBLE PRECISION NOT NULL
);

-- Telegram's 20 messages a minute per group, shared by every worker: a token bucket.
CREATE TABLE telegram_group_budget (
    chat_id     BIGINT PRIMARY KEY,   -- the group's current id
    tokens      DOUBLE PRECISION NOT NULL, -- calls left (negative: calls waiting their turn)
    at          DOUBLE PRECISION NOT NULL  -- Unix seconds of the last call
);
