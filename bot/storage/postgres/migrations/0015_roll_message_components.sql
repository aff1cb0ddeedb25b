-- SQLite's migration 0015: what the bot sent with each message of roll buttons (its
-- components, JSON), and the replies with roll buttons under way (issue 24.10, 24.16a).
ALTER TABLE roll_messages ADD COLUMN components TEXT COLLATE "C";

CREATE TABLE unkept_roll_replies (
    interaction_id  BIGINT PRIMARY KEY,
    guild_id        BIGINT NOT NULL,
    channel_id      BIGINT NOT NULL,
    made_at         TEXT COLLATE "C" NOT NULL
);
