-- SQLite's migration 0013: the incurably insane (RULES.md M4) counted and listed from an
-- index that holds only them.

CREATE INDEX characters_out_of_play ON characters (guild_id, health) WHERE stability_pool <= -12;
