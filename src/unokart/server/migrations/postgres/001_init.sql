-- unokart's tables in PostgreSQL: the same rows as the SQLite store (store.py's SCHEMA), so that
-- every backend gives the table service the same tables, seats, games, rounds and actions.
-- JSON columns are `json`, not `jsonb`: they keep the text as written (key order included), so a
-- stored record replays byte for byte like the SQLite one.

CREATE TABLE tables (
    code        text PRIMARY KEY,
    created     double precision NOT NULL,
    seats       integer NOT NULL,
    options     json NOT NULL,
    turn_timer  double precision,
    status      text NOT NULL,
    game        integer NOT NULL
);

CREATE TABLE seats (
    code        text NOT NULL REFERENCES tables (code) ON DELETE CASCADE,
    seat        integer NOT NULL,
    kind        text NOT NULL,
    name        text,
    level       text,
    token_hash  text,
    PRIMARY KEY (code, seat)
);
-- A seat token opens one seat only, on every server process.
CREATE UNIQUE INDEX seats_token ON seats (token_hash) WHERE token_hash IS NOT NULL;

CREATE TABLE games (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    code        text NOT NULL,
    game        integer NOT NULL,
    players     json NOT NULL,
    options     json NOT NULL,
    started     double precision NOT NULL,
    finished    double precision,
    scores      json,
    winner      integer
);
CREATE INDEX games_code ON games (code, game);
-- GET /api/games: finished games, newest first.
CREATE INDEX games_finished ON games (finished DESC, id DESC) WHERE finished IS NOT NULL;

CREATE TABLE rounds (
    game_id     bigint NOT NULL REFERENCES games (id),
    round       integer NOT NULL,
    seed        bigint NOT NULL CHECK (seed >= 0),
    PRIMARY KEY (game_id, round)
);

CREATE TABLE actions (
    game_id     bigint NOT NULL REFERENCES games (id),
    round       integer NOT NULL,
    idx         integer NOT NULL,
    action      text NOT NULL,
    PRIMARY KEY (game_id, round, idx)
);
