-- Buttons that know their roll (issue 12). roll_seq is the number of a character's latest
-- Consciousness roll: each roll that falls due takes the next number of one counter for the
-- whole file (meta key 'roll_seq'), and a button carries the number of the roll it was
-- posted for (salud:cons:<id>:<spend>:<roll_seq>), so it is refused once that roll is made
-- or replaced by a later one. Not part of the history's snapshots: an undo never makes an
-- old number current again.
ALTER TABLE characters ADD COLUMN roll_seq INTEGER NOT NULL DEFAULT 0;

-- The public messages that carry a character's roll buttons, so that the bot can disable
-- them once that roll is made or no longer due (also after a restart). A few per character
-- (the newest are kept); a row goes when its message is edited, or cannot be any more.
-- The key's columns come first: SQLite 3.40's quick_check reports false "NULL value" errors
-- for a WITHOUT ROWID table whose key columns follow others (which start-up would refuse).
CREATE TABLE roll_messages (
    character_id  INTEGER NOT NULL,
    message_id    INTEGER NOT NULL,
    guild_id      INTEGER NOT NULL,
    roll_seq      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    PRIMARY KEY (character_id, message_id)
) WITHOUT ROWID;

CREATE INDEX roll_messages_guild ON roll_messages (guild_id, character_id);
