-- Private numbers, the Keeper's screen (issue 28): a character whose numbers are private
-- is shown to the table in words; its owner and the table's GMs see the numbers. NULL is
-- shown (every character before this), so no row and no snapshot of before changes.
-- A table's default for the characters created at it from then on sits on its row (the
-- main table's too: its row is made when a GM first sets it).
ALTER TABLE characters ADD COLUMN numbers TEXT CHECK (numbers IN ('private'));
ALTER TABLE game_tables ADD COLUMN numbers TEXT CHECK (numbers IN ('private'));
