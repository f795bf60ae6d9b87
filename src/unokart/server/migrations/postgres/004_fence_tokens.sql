-- Fencing tokens drawn from PostgreSQL, not from Redis: a sequence only grows and outlives any restart of
-- Redis, whose own counter started again from 1 after one (a later owner then held an older token than the
-- table's and was refused, and a paused owner's stale token could pass). It starts past every token written.
CREATE SEQUENCE unokart_fence_tokens;
SELECT setval('unokart_fence_tokens', (SELECT COALESCE(max(fence), 0) + 1 FROM tables), false);
