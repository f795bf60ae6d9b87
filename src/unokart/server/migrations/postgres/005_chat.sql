-- A table's recent chat (its last 50 messages, trimmed as each is written), kept so that it outlives the table's
-- time in one process's memory: sent to a client that reconnects, after a reload, a restart or a takeover. Never
-- part of a game's record.
CREATE TABLE chat (id bigserial PRIMARY KEY, code text NOT NULL, message text NOT NULL);
CREATE INDEX chat_code ON chat (code, id);
