-- The language of each person's app (Telegram's language_code, Discord's client locale)
-- as last seen: a table's other seats get their screens in their own language without
-- their platform being asked again.

ALTER TABLE users ADD COLUMN app_locale TEXT;
