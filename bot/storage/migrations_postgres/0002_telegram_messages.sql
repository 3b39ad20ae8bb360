-- PostgreSQL twin of migrations/0002_telegram_messages.sql.

CREATE TABLE telegram_table_messages (
    table_id    BIGINT PRIMARY KEY,
    chat_key    TEXT NOT NULL,
    chat_id     BIGINT NOT NULL,
    thread_id   BIGINT,
    message_id  BIGINT NOT NULL,
    version     BIGINT NOT NULL
);

CREATE TABLE telegram_hand_messages (
    user_id     BIGINT NOT NULL,
    table_id    BIGINT NOT NULL,
    chat_key    TEXT NOT NULL,
    message_id  BIGINT NOT NULL,
    version     BIGINT NOT NULL,
    hand        TEXT NOT NULL,
    sort_mode   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, table_id)
);

CREATE TABLE telegram_chats (
    chat_id     BIGINT PRIMARY KEY,
    current_id  BIGINT NOT NULL,
    title       TEXT
);
CREATE UNIQUE INDEX telegram_chats_current ON telegram_chats (current_id);

CREATE TABLE telegram_users (
    user_id       BIGINT PRIMARY KEY,
    first_name    TEXT NOT NULL,
    username      TEXT,
    language_code TEXT,
    reachable     INTEGER
);
