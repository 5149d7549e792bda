-- Queue one command from the API, claiming its client command id, atomically; the request waits right
-- behind it (same pipeline) with BLPOP on its own reply list, where the processor pushes the outcome.
-- Runs after claims.lua (CLAIM).
-- KEYS: 1 command stream, 2 the game's command-id claims (claims.lua), 3 command records hash, 4 reply list (one slot:
--       the game's)
-- ARGV: 1 message (JSON), 2 stream max length (approximate), 3 the claim (claims.lua; "": no claim),
--       4 the shard's stall flag (keys.stalled, in the game's slot; "" or "0": none), 5 command id,
--       6 reply TTL seconds
-- Returns {"queued"} | {"reused"} (the id names another command: nothing queued)
--       | {"stalled", ms} (the shard's appends fail: its processor set the flag, which lives ms more; nothing
--         queued, the API answers 503 with Retry-After)
--       | {"check", record} (no fingerprint, yet the id was applied: claimed before fingerprints were kept per
--         game, or by a path that keeps none; the caller compares bodies)
-- On "reused", "check" and "stalled" a marker is pushed to the reply list, so the waiting BLPOP returns at once.
if ARGV[4] ~= '' and ARGV[4] ~= '0' then
  local left = redis.call('PTTL', ARGV[4])
  if left > 0 then
    redis.call('RPUSH', KEYS[4], '{"claim":"stalled"}')
    redis.call('EXPIRE', KEYS[4], tonumber(ARGV[6]))
    return {'stalled', left}
  end
end
if ARGV[3] ~= '' then
  local same = CLAIM(KEYS[2], ARGV[3])
  if same == nil then
    local applied = redis.call('HGET', KEYS[3], ARGV[5])
    if applied then
      redis.call('RPUSH', KEYS[4], '{"claim":"check"}')
      redis.call('EXPIRE', KEYS[4], tonumber(ARGV[6]))
      return {'check', applied}
    end
  elseif not same then
    redis.call('RPUSH', KEYS[4], '{"claim":"reused"}')
    redis.call('EXPIRE', KEYS[4], tonumber(ARGV[6]))
    return {'reused'}
  end
end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'm', ARGV[1])
return {'queued'}
