-- PostgreSQL twin of migrations/0012_chat_seasons.sql (same tables and meaning; bigint
-- ids, double precision numbers and times). A chat's rating seasons and the ratings
-- earned in each, updated in the commit that finishes a game.

CREATE TABLE chat_seasons (
    chat_key    TEXT NOT NULL,
    number      INTEGER NOT NULL,
    started_at  DOUBLE PRECISION NOT NULL,
    started_by  TEXT NOT NULL,
    PRIMARY KEY (chat_key, number)
);

CREATE TABLE chat_ratings (
    chat_key    TEXT NOT NULL,
    season      INTEGER NOT NULL,
    user_key    TEXT NOT NULL,
    variant     TEXT NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    games       INTEGER NOT NULL,
    last_change DOUBLE PRECISION NOT NULL,
    last_table  BIGINT NOT NULL,
    PRIMARY KEY (chat_key, season, user_key, variant)
);
CREATE INDEX chat_ratings_board ON chat_ratings (chat_key, variant, season);

-- The chat's season each game was rated in, when it was rated: a game counts in the season
-- its chat was in at its final commit, and the rebuild keeps that (NULL: rated before
-- this migration, when every chat was in its season 1).
ALTER TABLE rated_games ADD COLUMN chat_season INTEGER;
