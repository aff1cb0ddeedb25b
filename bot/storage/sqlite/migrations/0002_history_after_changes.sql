-- Salud storage, version 2 (issue 13): history_characters.after may hold only what changed
-- from before, as {"v": "changes", "set": {...}} (bot/storage/snapshot.py, dump_after). No
-- table changes; the version tells an older Salud, which could not read such rows, that
-- this file is newer than it (it then refuses to start, leaving the file as it is).
SELECT 1;
