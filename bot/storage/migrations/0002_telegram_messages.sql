-- Telegram adapter: which message shows which table, per group and per player, the
-- chats (a basic group upgraded to a supergroup keeps its first id as the table's chat
-- key) and what the adapter knows about users (language, whether it may write to them).

CREATE TABLE telegram_table_messages (
    table_id    INTEGER PRIMARY KEY,   -- tables.id
    chat_key    TEXT NOT NULL,         -- the table's chat key "telegram:<chat>:<thread>"
    chat_id     INTEGER NOT NULL,      -- the Telegram chat the message is in now
    thread_id   INTEGER,               -- forum topic (message_thread_id), NULL for none
    message_id  INTEGER NOT NULL,
    version     INTEGER NOT NULL       -- table version the message shows
);

CREATE TABLE telegram_hand_messages (
    user_id     INTEGER NOT NULL,      -- Telegram user id (= the private chat id)
    table_id    INTEGER NOT NULL,      -- tables.id
    chat_key    TEXT NOT NULL,         -- the table's chat key
    message_id  INTEGER NOT NULL,
    version     INTEGER NOT NULL,      -- game state version the keyboard was drawn for
    hand        TEXT NOT NULL,         -- the hand it shows ("7h 8h 9h"), to spot stale keys
    sort_mode   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, table_id)
);

CREATE TABLE telegram_chats (
    chat_id     INTEGER PRIMARY KEY,   -- the id in the chat key (the first id of the chat)
    current_id  INTEGER NOT NULL,      -- where messages go now (a supergroup after migration)
    title       TEXT
);
CREATE UNIQUE INDEX telegram_chats_current ON telegram_chats (current_id);

CREATE TABLE telegram_users (
    user_id       INTEGER PRIMARY KEY,
    first_name    TEXT NOT NULL,
    username      TEXT,
    language_code TEXT,
    reachable     INTEGER                -- 1: private chat works, 0: it does not, NULL: unknown
);
