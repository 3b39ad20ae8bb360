-- Seasons of a chat's rating board (docs/ratings.md, "Seasons"): a chat's host starts
-- the chat's next season (season new); the chat's board ranks the ratings earned in the
-- chat's games since (chat_ratings, updated in the same commit as ratings). A chat's
-- season 1 runs from the start; each row of chat_seasons starts the chat's next one. The
-- global board keeps the operator's seasons (rating_seasons). chat_ratings can be
-- recomputed from the finished games (rummy-bot ratings rebuild) and the season each was
-- rated in (rated_games.chat_season); the seasons' starts not.

CREATE TABLE chat_seasons (
    chat_key    TEXT NOT NULL,         -- "platform:chat_id[:thread]"
    number      INTEGER NOT NULL,      -- 2, 3, ...: the season this row starts
    started_at  REAL NOT NULL,         -- Unix seconds (a record: games count by chat_season)
    started_by  TEXT NOT NULL,         -- user key of who started it
    PRIMARY KEY (chat_key, number)
);

CREATE TABLE chat_ratings (
    chat_key    TEXT NOT NULL,
    season      INTEGER NOT NULL,      -- the chat's season
    user_key    TEXT NOT NULL,
    variant     TEXT NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    games       INTEGER NOT NULL,      -- rated games in this chat and season
    last_change REAL NOT NULL,
    last_table  INTEGER NOT NULL,
    PRIMARY KEY (chat_key, season, user_key, variant)
);
CREATE INDEX chat_ratings_board ON chat_ratings (chat_key, variant, season);

-- The chat's season each game was rated in, when it was rated: a game counts in the season
-- its chat was in at its final commit, and the rebuild keeps that (NULL: rated before
-- this migration, when every chat was in its season 1).
ALTER TABLE rated_games ADD COLUMN chat_season INTEGER;
