-- The live tracker (issue 12): one message per server that the bot edits after every change
-- of the server (/scene tracker). Its channel and message are kept so that it survives a
-- restart; the row goes for good when the message can no longer be edited.
CREATE TABLE trackers (
    guild_id    INTEGER PRIMARY KEY,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    created_at  TEXT    NOT NULL
);
