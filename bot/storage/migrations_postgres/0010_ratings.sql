-- PostgreSQL twin of migrations/0010_ratings.sql (same tables and meaning; bigint ids,
-- double precision numbers and times). Skill ratings per person, variant and season,
-- updated in the commit that finishes a game (rated_games: each game once).

CREATE TABLE rating_seasons (
    number      INTEGER PRIMARY KEY,
    started_at  DOUBLE PRECISION NOT NULL
);

CREATE TABLE ratings (
    user_key    TEXT NOT NULL,
    variant     TEXT NOT NULL,
    season      INTEGER NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    games       INTEGER NOT NULL,
    last_change DOUBLE PRECISION NOT NULL,
    last_table  BIGINT NOT NULL,
    PRIMARY KEY (user_key, variant, season)
);
CREATE INDEX ratings_board ON ratings (variant, season);

CREATE TABLE rated_games (
    table_id    BIGINT PRIMARY KEY,
    season      INTEGER NOT NULL,
    rated_at    DOUBLE PRECISION NOT NULL
);
