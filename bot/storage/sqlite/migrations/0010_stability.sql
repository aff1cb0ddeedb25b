-- Stability, the mind's pool (issue 21; RULES.md M). A character has Stability only once a
-- rating is given: stability_rating NULL means none, and then every other Stability column
-- holds its default (nothing of it is shown, asked or stored in the history's snapshots).
-- Older databases upgrade with no character given Stability: an ability a table named
-- "Stability" or "Estabilidad" stays an ordinary ability (a GM removes it with
-- /ability remove and gives the pool with /character set).
--
-- The snapshots of the history hold these values (as "stability", only for a character that
-- has it), so /undo restores every one of them. stability_seq, like roll_seq (0004), is not
-- in them: it numbers each Stability test called, and the buttons posted for it carry that
-- number, so a press is refused once that test is rolled or replaced, also after an undo.

ALTER TABLE characters ADD COLUMN stability_rating INTEGER
    CHECK (stability_rating IS NULL OR stability_rating >= 1);
ALTER TABLE characters ADD COLUMN stability_pool INTEGER
    CHECK ((stability_pool IS NULL) = (stability_rating IS NULL));
ALTER TABLE characters ADD COLUMN mental_illness INTEGER NOT NULL DEFAULT 0
    CHECK (mental_illness IN (0, 1));
ALTER TABLE characters ADD COLUMN lucid INTEGER NOT NULL DEFAULT 0 CHECK (lucid IN (0, 1));
ALTER TABLE characters ADD COLUMN scene_worst_loss INTEGER NOT NULL DEFAULT 0;
ALTER TABLE characters ADD COLUMN scene_lost INTEGER NOT NULL DEFAULT 0;
ALTER TABLE characters ADD COLUMN due_loss INTEGER;
ALTER TABLE characters ADD COLUMN due_difficulty INTEGER
    CHECK ((due_difficulty IS NULL) = (due_loss IS NULL));
ALTER TABLE characters ADD COLUMN stability_seq INTEGER NOT NULL DEFAULT 0;

-- The public messages that carry a character's Stability test buttons, as roll_messages
-- keeps those of the Consciousness roll: disabled once that test is rolled, replaced or
-- cleared (also after a restart). The key's columns come first (see 0004).
CREATE TABLE stability_messages (
    character_id  INTEGER NOT NULL,
    message_id    INTEGER NOT NULL,
    guild_id      INTEGER NOT NULL,
    roll_seq      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    PRIMARY KEY (character_id, message_id)
) WITHOUT ROWID;

CREATE INDEX stability_messages_guild ON stability_messages (guild_id, character_id);
