-- PostgreSQL twin of migrations/0009_discord_hand_anchors.sql.

CREATE TABLE discord_hand_anchors (
    table_id        BIGINT NOT NULL,
    user_key        TEXT NOT NULL,
    application_id  TEXT NOT NULL,
    token           TEXT NOT NULL,
    message_id      TEXT,
    state           TEXT NOT NULL,
    version         BIGINT NOT NULL,
    created_at      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, user_key)
);

CREATE INDEX discord_hand_anchors_created ON discord_hand_anchors (created_at);
