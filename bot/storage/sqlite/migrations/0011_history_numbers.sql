-- Each server numbers its own history (issue 20.6): #1 is a server's first change, whatever
-- the other servers did, and /history and /undo show that number. history.id stays the key
-- of an entry everywhere else (undo_of, undone_by, history_characters, the ids /undo's
-- buttons carry), so nothing that points at an entry changes.
--
-- Entries stored before get their server's numbers in the order they were made (their ids).
-- SQL only: what this migration stores does not depend on today's Python (key_versions.py).

ALTER TABLE history ADD COLUMN number INTEGER NOT NULL DEFAULT 0;

UPDATE history
SET number = numbered.number
FROM (
    SELECT id, row_number() OVER (PARTITION BY guild_id ORDER BY id) AS number FROM history
) AS numbered
WHERE history.id = numbered.id;

-- One number per server; the next one is probed with BEGIN (bot/storage/rows.py).
CREATE UNIQUE INDEX history_number ON history (guild_id, number);
