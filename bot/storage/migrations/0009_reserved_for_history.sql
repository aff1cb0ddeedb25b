-- Reserved (issue 21): the number of the history's migration (per-server entry numbers),
-- which another branch adds. Stability's migration is 0010, and the numbering must run
-- without a gap, so this step does nothing here; the history's own 0009 takes its place
-- when the branches are merged (nothing deployed ever ran this file).
SELECT 1;
