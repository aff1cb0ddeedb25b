-- The incurably insane (issue 24; RULES.md M4) are alive but out of play: /scene status, the
-- live tracker and /character list name them on a closing line and count them apart from
-- the others. This index holds only them (few, most servers none), so that counting and
-- listing them reads no other row of a server, however big (the queries repeat its
-- condition, -12, as written: SQLite uses a partial index only for a literal that implies it).

CREATE INDEX characters_out_of_play ON characters (guild_id, health) WHERE stability_pool <= -12;
