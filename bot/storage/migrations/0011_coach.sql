-- Whether each person gets the coach's notes after a deal (`coach on|off`): 1 on, 0 off,
-- NULL the default (on in a person's first three games of a variant).

ALTER TABLE users ADD COLUMN coach INTEGER;
