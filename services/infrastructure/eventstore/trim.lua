-- Trim a shard's streams behind what their readers have settled (no entry still to be read is removed).
-- Kind "feed": KEYS 1 the feed, 2.. the checkpoint of every follower role; ARGV 2 a margin (ms). The feed
--   loses the entries older than the lowest checkpoint by more than the margin (a follower resuming
--   after an outage rereads that far back; an entry at a checkpoint is already handled).
--   A role without a checkpoint has not read the feed yet: nothing is trimmed.
-- Kind "commands": KEYS 1 the command stream; ARGV 2 the consumer group. The stream loses the entries
--   below the oldest entry still pending in the group, or below the last one delivered when none is
--   pending (entries not yet delivered are never touched).
-- Returns the number of entries removed.
local function parse(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end
local function lower(a, b)
  local am, as = parse(a)
  local bm, bs = parse(b)
  if am < bm or (am == bm and as < bs) then return a end
  return b
end
if ARGV[1] == 'feed' then
  local low = nil
  for i = 2, #KEYS do
    local ckpt = redis.call('GET', KEYS[i])
    if not ckpt then return 0 end
    if low == nil then low = ckpt else low = lower(low, ckpt) end
  end
  if low == nil then return 0 end
  local ms, seq = parse(low)
  local margin = tonumber(ARGV[2] or '0')
  if margin > 0 then
    low = math.max(0, ms - margin) .. '-0'
  end
  return redis.call('XTRIM', KEYS[1], 'MINID', low)
end
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local groups = redis.call('XINFO', 'GROUPS', KEYS[1])
local last = nil
for _, group in ipairs(groups) do
  local name, delivered = nil, nil
  for j = 1, #group, 2 do
    if group[j] == 'name' then name = group[j + 1] end
    if group[j] == 'last-delivered-id' then delivered = group[j + 1] end
  end
  if name == ARGV[2] then last = delivered end
end
if last == nil then return 0 end
local pending = redis.call('XPENDING', KEYS[1], ARGV[2])
if pending[1] > 0 and pending[2] then
  last = lower(last, pending[2])
end
return redis.call('XTRIM', KEYS[1], 'MINID', last)
