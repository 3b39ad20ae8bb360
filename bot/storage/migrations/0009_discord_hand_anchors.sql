-- Discord adapter: each player's open hand message (an ephemeral answer to an interaction)
-- and the interaction token that can still edit it, so any worker on the database can
-- redraw it, not only the worker that saw the interaction. The token lets whoever holds
-- it edit that one ephemeral message for 15 minutes (Discord's token lifetime; the bot
-- stops using it after 14); rows are deleted once expired and when the table closes.

CREATE TABLE discord_hand_anchors (
    table_id        INTEGER NOT NULL,   -- tables.id
    user_key        TEXT NOT NULL,      -- "discord:<user id>"
    application_id  TEXT NOT NULL,      -- the bot's application id (the webhook id)
    token           TEXT NOT NULL,      -- the interaction token
    message_id      TEXT,               -- the ephemeral hand message, NULL when not known
    state           TEXT NOT NULL,      -- JSON {"digest", "sort", "mask"}: the HandState shown
    version         INTEGER NOT NULL,   -- table version the message shows
    created_at      REAL NOT NULL,      -- Unix seconds (service clock) of the interaction
    PRIMARY KEY (table_id, user_key)
);

CREATE INDEX discord_hand_anchors_created ON discord_hand_anchors (created_at);
