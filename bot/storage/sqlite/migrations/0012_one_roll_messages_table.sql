-- The messages carrying roll buttons of every kind in one table (issue 26): the
-- Consciousness roll's (0004, roll_messages) and the Stability test's (0010,
-- stability_messages) were two tables of one shape; each row now says its kind
-- ('consciousness' or 'stability', bot/storage/models.py RollKind), so that one query reads
-- a server's, and an engine has one table to keep. The numbers stay where they were
-- (characters.roll_seq and characters.stability_seq): the buttons posted already keep
-- working. The key's columns come first (see 0004); a message may carry both kinds.
CREATE TABLE roll_messages_of_every_kind (
    character_id  INTEGER NOT NULL,
    message_id    INTEGER NOT NULL,
    kind          TEXT    NOT NULL,
    guild_id      INTEGER NOT NULL,
    roll_seq      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    PRIMARY KEY (character_id, message_id, kind)
) WITHOUT ROWID;

INSERT INTO roll_messages_of_every_kind
    (character_id, message_id, kind, guild_id, roll_seq, channel_id)
SELECT character_id, message_id, 'consciousness', guild_id, roll_seq, channel_id
FROM roll_messages;

INSERT INTO roll_messages_of_every_kind
    (character_id, message_id, kind, guild_id, roll_seq, channel_id)
SELECT character_id, message_id, 'stability', guild_id, roll_seq, channel_id
FROM stability_messages;

DROP TABLE roll_messages;
DROP TABLE stability_messages;
ALTER TABLE roll_messages_of_every_kind RENAME TO roll_messages;

CREATE INDEX roll_messages_guild ON roll_messages (guild_id, character_id);
