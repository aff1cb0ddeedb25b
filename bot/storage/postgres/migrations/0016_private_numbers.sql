-- SQLite's migration 0016: a character's private numbers (issue 28), NULL for shown, and a
-- table's default for the characters created at it.
ALTER TABLE characters ADD COLUMN numbers TEXT COLLATE "C" CHECK (numbers IN ('private'));
ALTER TABLE game_tables ADD COLUMN numbers TEXT COLLATE "C" CHECK (numbers IN ('private'));
