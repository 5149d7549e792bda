-- Move a settled stretch of a game's log into one compressed segment, atomically.
-- KEYS: 1 events stream, 2 command records hash, 3 segments hash, 4 settled-ids index (all in the game's slot)
-- ARGV: 1 first version in the stream, 2 last version (a command boundary), 3 segment field, 4 segment
--       (zlib: the envelopes, a blank line, the command records), 5 index entries of the stretch's
--       commands, 6 the field of the segment merged into this one ("" when none), 7.. the stretch's command ids
-- Returns 1 when moved, 0 when the stream no longer starts at the first version or lacks the last one
-- (nothing changed).
local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
if #first == 0 or first[1][1] ~= ARGV[1] .. '-1' then
  return 0
end
if #redis.call('XRANGE', KEYS[1], ARGV[2] .. '-1', ARGV[2] .. '-1') == 0 then
  return 0
end
if ARGV[6] ~= '' then
  if redis.call('HDEL', KEYS[3], ARGV[6]) == 0 then
    return 0
  end
end
redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
-- The rest (the last command's events) written again into a fresh stream: trimming only marks the entries
-- of a part-trimmed node deleted, and the node keeps their space (up to 4 KB) until all of it goes.
local rest = redis.call('XRANGE', KEYS[1], (tonumber(ARGV[2]) + 1) .. '-0', '+')
if #rest > 0 then
  redis.call('DEL', KEYS[1])
  for _, entry in ipairs(rest) do
    redis.call('XADD', KEYS[1], entry[1], unpack(entry[2]))
  end
else
  redis.call('XTRIM', KEYS[1], 'MINID', (tonumber(ARGV[2]) + 1) .. '-0')
end
if #ARGV >= 7 then  -- one HDEL for every id of the stretch
  redis.call('HDEL', KEYS[2], unpack(ARGV, 7, #ARGV))
end
-- SET, not APPEND: an appended string keeps room to grow (up to twice its size)
redis.call('SET', KEYS[4], (redis.call('GET', KEYS[4]) or '') .. ARGV[5])
return 1
