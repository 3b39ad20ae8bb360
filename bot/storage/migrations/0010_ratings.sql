-- Skill ratings (bot/service/ratings.py): each person's Plackett-Luce rating per variant
-- and season, updated in the commit that finishes a game (rated_games: each game once).
-- Season 1 runs from the start; each row of rating_seasons starts the next one. All of it
-- can be recomputed from the finished games (rummy-bot ratings rebuild) but the seasons'
-- starts.

CREATE TABLE rating_seasons (
    number      INTEGER PRIMARY KEY,   -- 2, 3, ...: the season this row starts
    started_at  REAL NOT NULL          -- Unix seconds; games finished from then on count in it
);

CREATE TABLE ratings (
    user_key    TEXT NOT NULL,         -- "platform:user_id"
    variant     TEXT NOT NULL,
    season      INTEGER NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    games       INTEGER NOT NULL,      -- rated games
    last_change REAL NOT NULL,         -- change of mu - 3 sigma in the last rated game
    last_table  INTEGER NOT NULL,      -- tables.id of the last rated game
    PRIMARY KEY (user_key, variant, season)
);
CREATE INDEX ratings_board ON ratings (variant, season);

CREATE TABLE rated_games (
    table_id    INTEGER PRIMARY KEY,   -- tables.id: its ratings are counted (once)
    season      INTEGER NOT NULL,
    rated_at    REAL NOT NULL
);
