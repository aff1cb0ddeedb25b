-- Salud storage, version 6: a character's grammatical gender (issue 11), so that Spanish
-- sentences agree with it and English ones say she/he. NULL: not given; replies then use
-- labels and the name (never an adjective that assumes a gender).

ALTER TABLE characters ADD COLUMN gender TEXT CHECK (gender IN ('feminine', 'masculine'));
