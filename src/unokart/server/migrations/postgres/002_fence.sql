-- Fencing (several server processes): the newest lease token that wrote to each table. A process writes to a
-- table only with a token at least this one (and raises it to its own), so an owner that lost its Redis lease
-- (paused past it, cut off from Redis) cannot write after the next owner has begun.
ALTER TABLE tables ADD COLUMN fence bigint NOT NULL DEFAULT 0;
