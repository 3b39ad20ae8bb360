-- Discord adapter: the public message that shows each table (edited in place), the last
-- turn ping (deleted when the next one is sent) and the recent event lines shown under
-- the table.

CREATE TABLE discord_table_messages (
    table_id    INTEGER PRIMARY KEY,   -- tables.id
    channel_id  TEXT NOT NULL,         -- text channel, thread or DM channel id
    message_id  TEXT NOT NULL,         -- the table message
    version     INTEGER NOT NULL,      -- table version the message shows
    ping_id     TEXT,                  -- the last turn ping message, NULL when none
    ping_seat   INTEGER,               -- the seat that ping was for
    recent      TEXT NOT NULL DEFAULT '[]'  -- JSON list of the last event lines
);
