-- Append one command's events to a game's stream, atomically, and settle the command.
-- KEYS: 1 events stream, 2 head hash, 3 command records hash, 4 shard feed, 5 shard game set,
--       6 outcome key, 7 command stream (all in the game's shard slot)
-- ARGV: 1 game id, 2 expected version, 3 expected head hash, 4 command id,
--       5 command record (JSON), 6 outcome (JSON or ""), 7 outcome TTL seconds,
--       8 consumer group (or ""), 9 command stream entry id (or ""), 10 count N,
--       then N pairs (hash, envelope JSON)
-- Returns {"ok", new_version} | {"dup", record} | {"stale", head_version} | {"chain", head_hash}
-- Appending, storing the outcome and acknowledging the stream entry happen together, so a
-- processor dying at any point either did all of it or none of it.
local existing = redis.call('HGET', KEYS[3], ARGV[4])
if existing then
  return {'dup', existing}
end
local head = redis.call('HMGET', KEYS[2], 'version', 'hash')
local version = tonumber(head[1] or '0')
local head_hash = head[2] or ''
if version ~= tonumber(ARGV[2]) then
  return {'stale', tostring(version)}
end
if version > 0 and head_hash ~= ARGV[3] then
  return {'chain', head_hash}
end
local n = tonumber(ARGV[10])
local last_hash = head_hash
for i = 1, n do
  last_hash = ARGV[9 + 2 * i]
  redis.call('XADD', KEYS[1], (version + i) .. '-1', 'e', ARGV[10 + 2 * i])
end
local new_version = version + n
redis.call('HSET', KEYS[2], 'version', new_version, 'hash', last_hash)
redis.call('HSET', KEYS[3], ARGV[4], ARGV[5])
redis.call('XADD', KEYS[4], '*', 'g', ARGV[1], 'f', version + 1, 't', new_version)
redis.call('SADD', KEYS[5], ARGV[1])
if ARGV[6] ~= '' then
  redis.call('SET', KEYS[6], ARGV[6], 'EX', tonumber(ARGV[7]))
end
if ARGV[9] ~= '' then
  redis.call('XACK', KEYS[7], ARGV[8], ARGV[9])
end
return {'ok', tostring(new_version)}
