-- Salud storage, version 1. Every table is keyed by guild_id (directly or through its
-- character); every query filters on it.

CREATE TABLE guild_settings (
    guild_id    INTEGER PRIMARY KEY,
    gm_role_id  INTEGER,
    channel_id  INTEGER,
    language    TEXT,
    updated_at  TEXT NOT NULL
);

-- AUTOINCREMENT: an id is never reused, so an old button or history row never points at a
-- different character; /undo re-creates a deleted character under its old id.
CREATE TABLE characters (
    id                    INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id              INTEGER NOT NULL,
    name                  TEXT    NOT NULL,
    name_key              TEXT    NOT NULL,
    owner_id              INTEGER NOT NULL,
    health                INTEGER NOT NULL,
    max_health            INTEGER NOT NULL,
    first_aid_pool        INTEGER NOT NULL,
    first_aid_rating      INTEGER NOT NULL,
    scene_start_health    INTEGER NOT NULL,
    conscious             INTEGER NOT NULL CHECK (conscious IN (0, 1)),
    roll_pending          INTEGER NOT NULL CHECK (roll_pending IN (0, 1)),
    stabilized            INTEGER NOT NULL CHECK (stabilized IN (0, 1)),
    hospital_length_days  INTEGER,
    hospital_days_served  INTEGER,
    lowest_health         INTEGER,
    first_aid_received    INTEGER NOT NULL,
    bleed_minutes         INTEGER NOT NULL,
    full_recovery_due     INTEGER NOT NULL CHECK (full_recovery_due IN (0, 1)),
    created_at            TEXT    NOT NULL,
    CHECK ((hospital_length_days IS NULL) = (hospital_days_served IS NULL)),
    UNIQUE (guild_id, name_key)
);

CREATE INDEX characters_owner ON characters (guild_id, owner_id);

CREATE TABLE abilities (
    character_id  INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    name          TEXT    NOT NULL,
    name_key      TEXT    NOT NULL,
    kind          TEXT    NOT NULL,
    rating        INTEGER NOT NULL,
    pool          INTEGER NOT NULL,
    PRIMARY KEY (character_id, name_key)
) WITHOUT ROWID;

-- One row per change (a command that altered some stored value of a character).
CREATE TABLE history (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    interaction_id  INTEGER NOT NULL UNIQUE,
    actor_id        INTEGER NOT NULL,
    command         TEXT    NOT NULL,
    details         TEXT    NOT NULL,
    created_at      TEXT    NOT NULL,
    undo_of         INTEGER REFERENCES history (id),
    undone_by       INTEGER REFERENCES history (id)
);

CREATE INDEX history_guild ON history (guild_id, id);

-- The entries /undo may still revert, newest last.
CREATE INDEX history_undoable ON history (guild_id, id)
    WHERE undo_of IS NULL AND undone_by IS NULL;

-- Whole snapshots (character row + abilities, JSON): before NULL = created, after NULL =
-- deleted. No foreign key to characters: the rows outlive a deleted character.
CREATE TABLE history_characters (
    history_id    INTEGER NOT NULL REFERENCES history (id) ON DELETE CASCADE,
    character_id  INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    before        TEXT,
    after         TEXT,
    PRIMARY KEY (history_id, character_id)
) WITHOUT ROWID;

CREATE INDEX history_characters_character ON history_characters (character_id, history_id);

CREATE TABLE meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
) WITHOUT ROWID;
