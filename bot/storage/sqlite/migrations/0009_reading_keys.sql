-- Lists read a page at a time from an index (issue 19 point 8). /character list, /scene status
-- and the tracker show a server's characters in the order a reader of its language expects
-- (case and accents ignored; in Spanish, ñ after n). That order was worked out by a function
-- for every row of the server on every page: a server of 50,000 characters held the storage
-- for a tenth of a second a page. The two orders are now stored beside the name and indexed;
-- a page reads only its rows. The keys are computed with frozen functions
-- (bot/storage/key_versions.py), never with today's code.
--
-- A server's characters are counted, and the living or bleeding ones found, from an index on
-- their Health; a change over a whole server reads them a batch at a time, by id, from an
-- index of the server's rows.

ALTER TABLE characters ADD COLUMN reading_key_es TEXT NOT NULL DEFAULT '';
ALTER TABLE characters ADD COLUMN reading_key_en TEXT NOT NULL DEFAULT '';

UPDATE characters
SET reading_key_es = salud_reading_key_es_v1(name), reading_key_en = salud_reading_key_en_v1(name);

CREATE INDEX characters_reading_es ON characters (guild_id, reading_key_es);
CREATE INDEX characters_reading_en ON characters (guild_id, reading_key_en);
CREATE INDEX characters_health ON characters (guild_id, health);
CREATE INDEX characters_guild ON characters (guild_id);
