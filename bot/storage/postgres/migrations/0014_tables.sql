-- SQLite's migration 0014: tables, several games in one server (issue 27); every server
-- the database knows gets its main table's row (its id the server's own).
CREATE TABLE game_tables (
    id          BIGINT PRIMARY KEY,
    guild_id    BIGINT NOT NULL,
    name        TEXT COLLATE "C",
    name_key    TEXT COLLATE "C",
    gm_role_id  BIGINT,
    channel_id  BIGINT,
    created_at  TEXT COLLATE "C" NOT NULL,
    CHECK ((name IS NULL) = (name_key IS NULL)),
    CHECK (id = guild_id OR name IS NOT NULL)
);

CREATE UNIQUE INDEX game_tables_name ON game_tables (guild_id, name_key);
CREATE INDEX game_tables_guild ON game_tables (guild_id, id);

CREATE TABLE table_places (
    place_id  BIGINT PRIMARY KEY,
    guild_id  BIGINT NOT NULL,
    table_id  BIGINT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE
);

CREATE INDEX table_places_table ON table_places (table_id);

INSERT INTO game_tables (id, guild_id, created_at)
SELECT guild_id, guild_id, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
FROM (
    SELECT guild_id FROM guild_settings
    UNION SELECT guild_id FROM characters
    UNION SELECT guild_id FROM history
    UNION SELECT guild_id FROM trackers
) AS known;
