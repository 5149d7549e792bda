-- Swap an archived game's log for the summary pointing at its archive, atomically.
-- KEYS: 1 archive pointer, 2 head hash, 3 command records hash, 4 rejections hash, then the n side keys,
--       then every other key of the game to remove (events, snapshot, seed, views, clocks; all in the game's slot)
-- ARGV: 1 head version archived, 2 head hash archived, 3 command records archived, 4 rejections archived,
--       5 the pointer (JSON), 6 n, then each side key's DUMP as archived ('' when it did not exist)
-- Returns "archived", "already" (a pointer is there: nothing done) or "changed" (the log, its commands, its
-- rejections or a side key moved since the archive was written: nothing removed, write the archive again).
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 'already'
end
local head = redis.call('HMGET', KEYS[2], 'version', 'hash')
if head[1] ~= ARGV[1] or head[2] ~= ARGV[2] then
  return 'changed'
end
if redis.call('HLEN', KEYS[3]) ~= tonumber(ARGV[3]) or redis.call('HLEN', KEYS[4]) ~= tonumber(ARGV[4]) then
  return 'changed'
end
for i = 1, tonumber(ARGV[6]) do
  local now = redis.call('DUMP', KEYS[4 + i])
  if now == false then now = '' end
  if now ~= ARGV[6 + i] then
    return 'changed'
  end
end
redis.call('SET', KEYS[1], ARGV[5])
for i = 2, #KEYS do
  redis.call('DEL', KEYS[i])
end
return 'archived'
