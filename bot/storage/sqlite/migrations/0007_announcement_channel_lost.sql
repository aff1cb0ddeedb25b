-- The announcement channel the bot lost (issue 19.6). After a 403 or 404 there the bot
-- clears the server's channel (guild_settings.channel_id) and stops posting there: every
-- refused post is an invalid request, and Discord bans a bot (every server at once) after
-- 10,000 of them in 10 minutes. A row here waits until a GM of the server has been told,
-- once, or has set a channel again (/config channel). One row per server at most.
CREATE TABLE announcement_channel_lost (
    guild_id    INTEGER PRIMARY KEY,
    channel_id  INTEGER NOT NULL,
    status      INTEGER NOT NULL,
    lost_at     TEXT    NOT NULL
);
