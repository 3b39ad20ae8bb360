-- PostgreSQL twin of migrations/0003_discord_messages.sql.

CREATE TABLE discord_table_messages (
    table_id    BIGINT PRIMARY KEY,
    channel_id  TEXT NOT NULL,
    message_id  TEXT NOT NULL,
    version     BIGINT NOT NULL,
    ping_id     TEXT,
    ping_seat   INTEGER,
    recent      TEXT NOT NULL DEFAULT '[]'
);
