-- Tables: several games in one server (issue 27). A table is one game: its characters, its
-- scene and clock, its tracker, its history numbered from #1, its /undo, its announcement
-- channel and its GMs. Every server has its main table, whose id is the server's own id: the
-- rows a server held before (characters, history with its numbers, due rolls, trackers, all
-- keyed by guild_id) are its main table's as they stand, and nothing moves or renumbers.
-- From here on the guild_id of characters, history, trackers and roll_messages is the id
-- of the table they belong to; another table's id is the
-- snowflake of the /table create that made it (never a server's id). guild_settings keeps
-- the server's /config (GM role, language, the main table's announcement channel).
CREATE TABLE game_tables (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    name        TEXT,
    name_key    TEXT,
    gm_role_id  INTEGER,
    channel_id  INTEGER,
    created_at  TEXT    NOT NULL,
    -- The main table's name is NULL until a GM renames it ("Mesa principal" / "Main table").
    CHECK ((name IS NULL) = (name_key IS NULL)),
    CHECK (id = guild_id OR name IS NOT NULL)
);

CREATE UNIQUE INDEX game_tables_name ON game_tables (guild_id, name_key);
CREATE INDEX game_tables_guild ON game_tables (guild_id, id);

-- Where each table is played: a category, a channel, a forum or a thread, bound to at most
-- one table. The main table needs no place: it is where no bound place is.
CREATE TABLE table_places (
    place_id  INTEGER PRIMARY KEY,
    guild_id  INTEGER NOT NULL,
    table_id  INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE
);

CREATE INDEX table_places_table ON table_places (table_id);

-- Every server the file knows gets its main table's row, holding all of today's data.
INSERT INTO game_tables (id, guild_id, created_at)
SELECT guild_id, guild_id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM (
    SELECT guild_id FROM guild_settings
    UNION SELECT guild_id FROM characters
    UNION SELECT guild_id FROM history
    UNION SELECT guild_id FROM trackers
);
