-- Health of the stored tables: the release format of each row, faults of tables whose
-- automatic steps fail (backed off) or whose row cannot be loaded (quarantined), and the
-- heartbeat of the running bot (to tell downtime from time the bot was up).

-- The row format a release writes (bot.storage.repository.ROW_FORMAT); a row with a
-- larger number was written by a newer release and is refused, not misread.
ALTER TABLE tables ADD COLUMN format INTEGER NOT NULL DEFAULT 1;

CREATE TABLE table_faults (
    table_id    INTEGER PRIMARY KEY,   -- tables.id
    kind        TEXT NOT NULL CHECK (kind IN ('backoff', 'quarantined')),
    failures    INTEGER NOT NULL,      -- failed steps in a row
    error       TEXT NOT NULL,         -- the last error, shortened
    retry_at    REAL,                  -- next try (Unix time), NULL when quarantined
    first_at    REAL NOT NULL,
    last_at     REAL NOT NULL
);

CREATE TABLE heartbeat (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    beat_at     REAL NOT NULL          -- last time (Unix) the running bot said it was up
);
