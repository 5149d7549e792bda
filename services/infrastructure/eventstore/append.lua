-- Settle one command atomically: append its events (kind "append") or record its rejection
-- (kind "reject"), store its outcome and acknowledge its stream entry.
-- KEYS: 1 events stream, 2 head hash, 3 command records hash, 4 shard feed, 5 shard game set,
--       6 outcome key, 7 command stream, 8 rejections hash, 9 reply list, 10 settled-ids index of the
--       commands moved into compressed segments (all in the game's shard slot)
-- ARGV: 1 game id, 2 expected version (-1: unchecked, for a dead letter), 3 expected head hash,
--       4 command id, 5 record (JSON: the audit record, or the rejection outcome), 6 outcome (JSON or ""),
--       7 outcome TTL seconds, 8 consumer group (or ""), 9 command stream entry id (or ""),
--       10 kind ("append" | "reject"), 11 count N, 12 reply TTL seconds ("0": nobody waits on KEYS[9]),
--       then N pairs (hash, envelope JSON), then the command id's digest in the settled-ids index (8 bytes),
--       then (optional) "0" when none of the events is a kernel event (``taproom.*``: the game's status, seats or
--       pace unchanged), "1" otherwise: the feed entry carries it as ``k`` (the reactor skips what cannot concern it),
--       then (optional) "1" when the feed entry is to carry the events too, as ``e`` (a JSON array of the
--       envelopes): the projector and the reactor fold them without reading the log,
--       then (optional, inline projections) M, L, M values, L pairs
--       (seat, legal): the game's meta and views written with one MSET to KEYS[11..10+M], its legal commands per
--       seat in the hash KEYS[11+M] (replaced whole): the models are never behind the log
-- KEYS (optional) 11.. the inline models' keys (in the game's slot)
-- A waiting request (reply TTL > 0) gets ARGV[6] pushed onto its own reply list (it waits with BLPOP): the caller
-- passes there the whole reply, {"outcome": <outcome>, "events": [<envelope>, ...], "after": <after, when given>}
-- (built once outside: every string a script makes or is given is hashed byte by byte by Redis's Lua, so
-- concatenating it here cost three passes over it); the outcome key is then not written (the command records and
-- the rejections hash keep every outcome for later look-ups).
-- Returns {"ok", version} | {"dup", record} | {"refused", rejection} | {"stale", head_version}
--       | {"chain", head_hash}
-- One command id has one outcome forever: an id already applied or already rejected is never
-- decided again. A rejection is checked against the version it was decided on, like an append,
-- so a processor with a stale record cannot reject what the current log would accept.
local existing = redis.call('HGET', KEYS[3], ARGV[4])
if existing then
  return {'dup', existing}
end
local refused = redis.call('HGET', KEYS[8], ARGV[4])
if refused then
  return {'refused', refused}
end
-- An applied command whose record moved into a segment: its index entry is 20 bytes, 8 of the id's
-- SHA-1 and the from and to versions (6 hex digits each).
local index = redis.call('GET', KEYS[10])
if index then
  local digest = ARGV[13 + 2 * tonumber(ARGV[11])]
  local pos = string.find(index, digest, 1, true)
  while pos do
    if (pos - 1) % 20 == 0 then
      return {'dup', '{"from_version":' .. tonumber(string.sub(index, pos + 8, pos + 13), 16) ..
                     ',"to_version":' .. tonumber(string.sub(index, pos + 14, pos + 19), 16) .. '}'}
    end
    pos = string.find(index, digest, pos + 1, true)
  end
end
local head = redis.call('HMGET', KEYS[2], 'version', 'hash')
local version = tonumber(head[1] or '0')
local head_hash = head[2] or ''
local expected = tonumber(ARGV[2])
if expected >= 0 then
  if version ~= expected then
    return {'stale', tostring(version)}
  end
  if version > 0 and head_hash ~= ARGV[3] then
    return {'chain', head_hash}
  end
end
local new_version = version
if ARGV[10] == 'reject' then
  redis.call('HSET', KEYS[8], ARGV[4], ARGV[5])
else
  local n = tonumber(ARGV[11])
  local last_hash = head_hash
  for i = 1, n do
    last_hash = ARGV[11 + 2 * i]
    redis.call('XADD', KEYS[1], (version + i) .. '-1', 'e', ARGV[12 + 2 * i])
  end
  new_version = version + n
  redis.call('HSET', KEYS[2], 'version', new_version, 'hash', last_hash)
  redis.call('HSET', KEYS[3], ARGV[4], ARGV[5])
  local kernel = ARGV[14 + 2 * n]
  if kernel and ARGV[15 + 2 * n] == '1' then  -- the events ride along: a follower needs no read of the log
    local events = {}
    for i = 1, n do
      events[i] = ARGV[12 + 2 * i]
    end
    redis.call('XADD', KEYS[4], '*', 'g', ARGV[1], 'f', version + 1, 't', new_version, 'k', kernel,
               'e', '[' .. table.concat(events, ',') .. ']')
  elseif kernel then
    redis.call('XADD', KEYS[4], '*', 'g', ARGV[1], 'f', version + 1, 't', new_version, 'k', kernel)
  else
    redis.call('XADD', KEYS[4], '*', 'g', ARGV[1], 'f', version + 1, 't', new_version)
  end
  if version == 0 then  -- the game's first events: it joins its shard's set of games (never left since)
    redis.call('SADD', KEYS[5], ARGV[1])
  end
  local models = ARGV[16 + 2 * n]
  if models then
    local m, l = tonumber(models), tonumber(ARGV[17 + 2 * n])
    local base = 17 + 2 * n
    if m > 0 then  -- one MSET for the meta and every view
      local pairs = {}
      for i = 1, m do
        pairs[2 * i - 1] = KEYS[10 + i]
        pairs[2 * i] = ARGV[base + i]
      end
      redis.call('MSET', unpack(pairs))
    end
    if l > 0 then
      local fields = {}
      for i = 1, 2 * l do
        fields[i] = ARGV[base + m + i]
      end
      redis.call('HSET', KEYS[11 + m], unpack(fields))
    end
  end
end
local reply_ttl = tonumber(ARGV[12])
if reply_ttl > 0 and ARGV[6] ~= '' then  -- ARGV[6] is the whole reply then, made by the caller (Appends.reply_of)
  redis.call('RPUSH', KEYS[9], ARGV[6])
  redis.call('EXPIRE', KEYS[9], reply_ttl)
elseif ARGV[6] ~= '' then
  redis.call('SET', KEYS[6], ARGV[6], 'EX', tonumber(ARGV[7]))
end
if ARGV[9] ~= '' then
  redis.call('XACK', KEYS[7], ARGV[8], ARGV[9])
end
return {'ok', tostring(new_version)}
