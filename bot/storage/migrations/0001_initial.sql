-- Users, tables (lobby and game in one row, JSON state, version for compare-and-set),
-- the action log, seen platform updates (idempotency) and results.

CREATE TABLE users (
    platform     TEXT NOT NULL,
    user_id      TEXT NOT NULL,
    display_name TEXT NOT NULL,
    locale       TEXT,
    created_at   REAL NOT NULL,
    PRIMARY KEY (platform, user_id)
);

CREATE TABLE tables (
    id             INTEGER PRIMARY KEY,
    chat_key       TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    variant        TEXT NOT NULL,
    preset         TEXT,
    options        TEXT NOT NULL,      -- JSON object of option values given by the host
    host           TEXT NOT NULL,      -- user key "platform:user_id"
    seats          TEXT NOT NULL,      -- JSON list of seats
    settings       TEXT NOT NULL,      -- JSON object: timer, locale, delays
    seed           INTEGER NOT NULL,
    state          TEXT,               -- JSON game state (engine.serialize), NULL in the lobby
    version        INTEGER NOT NULL,
    due_at         REAL,               -- next automatic step (AI move, timer, next deal)
    deadline       REAL,               -- the current turn's time limit
    warned         INTEGER NOT NULL DEFAULT 0,
    ended_reason   TEXT,
    created_at     REAL NOT NULL,
    updated_at     REAL NOT NULL,
    last_human_at  REAL NOT NULL
);

-- One active table per chat key (platform, chat, thread).
CREATE UNIQUE INDEX tables_one_active ON tables (chat_key) WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_due ON tables (due_at) WHERE status IN ('lobby', 'playing');

CREATE TABLE actions (
    id         INTEGER PRIMARY KEY,    -- order of the log
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    version    INTEGER NOT NULL,       -- the table version this action's commit produced
    seat       INTEGER,
    command    TEXT NOT NULL,          -- the command language ("meld 7h 8h 9h"), or a lobby verb
    actor      TEXT NOT NULL,          -- user key, "ai" or "timer"
    created_at REAL NOT NULL
);
CREATE INDEX actions_table ON actions (table_id, id);

CREATE TABLE seen_updates (
    key        TEXT PRIMARY KEY,       -- platform update / interaction id
    table_id   INTEGER,
    version    INTEGER,
    seen_at    REAL NOT NULL
);

CREATE TABLE results (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    seat        INTEGER NOT NULL,
    user_key    TEXT,                  -- NULL for AI seats
    name        TEXT NOT NULL,
    chat_key    TEXT NOT NULL,
    variant     TEXT NOT NULL,
    score       TEXT NOT NULL,         -- exact (fractions as "n/d")
    won         INTEGER NOT NULL,
    finished_at REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX results_user ON results (user_key);
CREATE INDEX results_chat ON results (chat_key);
