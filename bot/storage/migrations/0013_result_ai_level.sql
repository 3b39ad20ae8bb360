-- The level an AI seat played at (easy, normal, hard, expert) in each result row of a
-- finished game; NULL for a person's seat and for AI seats of games finished before this
-- column (their level was not recorded). `stats` counts a person's games against each
-- level from it (docs/ratings.md).

ALTER TABLE results ADD COLUMN ai_level TEXT;
