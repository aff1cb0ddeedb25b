-- Names as people type them (issue 12). look_key is what a character's name looks like: the
-- UTS #39 skeleton of the name folded (case, accents, width, spaces), computed by the frozen
-- function salud_look_key_v1 (bot/storage/key_versions.py, registered by
-- bot.storage.database.connect; it computes what this migration computed when it shipped).
-- /character create and rename refuse a name whose look_key another character of the server
-- has. Names stored before this rule may share one: they are all kept (no UNIQUE here), each
-- reachable by its exact name, and /character list marks them for a GM to rename.

ALTER TABLE characters ADD COLUMN look_key TEXT NOT NULL DEFAULT '';

UPDATE characters SET look_key = salud_look_key_v1(name);

CREATE INDEX characters_look ON characters (guild_id, look_key);
