-- What the bot sent with each message that carries roll buttons, and the replies with
-- roll buttons under way (issue 24.10, 24.16a).
--
-- components: the message's components as the bot sent them (JSON), so that its old
-- buttons are disabled with one PATCH and no GET (the bot knows what it sent); NULL for the
-- messages kept before this migration, which are still read first. One column: the
-- messages of every kind are in one table since 0012.
ALTER TABLE roll_messages ADD COLUMN components TEXT;

-- A change that numbered a roll or a test, whose reply (with its buttons) was not kept yet:
-- written in the change's own transaction, deleted once the reply's message is kept. A row
-- left by a process killed in between is looked for at the next start (the reply is the
-- bot's message after the interaction in its channel), so its buttons are still disabled.
CREATE TABLE unkept_roll_replies (
    interaction_id  INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    made_at         TEXT    NOT NULL
);
