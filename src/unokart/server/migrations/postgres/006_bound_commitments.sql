-- A game's first commitment binds its players and house rules as well as its seed (PROTOCOL.md section 7).
-- Games stored before keep the seed-only form they were announced with: verify refuses to call them verified.
ALTER TABLE games ADD COLUMN bound boolean NOT NULL DEFAULT false;
