-- Lookalike names as typed (issues 19.7 and 20.11). Two keys say what a character's name looks
-- like, both UTS #39 skeletons (bot/storage/names.py): look_key, of the name folded (case,
-- accents, width, spaces, and now typographic apostrophes, quotes and dashes as the plain
-- ones), and typed_look_key, new, of the name as typed, before any case folding (Cyrillic
-- "Вob" looks like "Bob"; folded, "вob" looks like no Latin name). Create and rename refuse a
-- name that shares either key with another character of the server.
--
-- Both are computed with frozen functions (bot/storage/key_versions.py, registered by
-- bot.storage.database.connect), never with today's key code: what this migration stores does
-- not change when that code does. Names stored before may now collide: they are all kept, each
-- reachable by its exact name, and /character list marks them.

ALTER TABLE characters ADD COLUMN typed_look_key TEXT NOT NULL DEFAULT '';

UPDATE characters
SET look_key = salud_look_key_v2(name), typed_look_key = salud_typed_look_key_v1(name);

CREATE INDEX characters_typed_look ON characters (guild_id, typed_look_key);
