-- PostgreSQL twin of migrations/0004_health.sql: row format, table faults, heartbeat.

ALTER TABLE tables ADD COLUMN format INTEGER NOT NULL DEFAULT 1;

CREATE TABLE table_faults (
    table_id    BIGINT PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('backoff', 'quarantined')),
    failures    INTEGER NOT NULL,
    error       TEXT NOT NULL,
    retry_at    DOUBLE PRECISION,
    first_at    DOUBLE PRECISION NOT NULL,
    last_at     DOUBLE PRECISION NOT NULL
);

CREATE TABLE heartbeat (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    beat_at     DOUBLE PRECISION NOT NULL
);
