-- The API's admission of a command and its queueing in one step (one round trip with the BLPOP behind it):
-- the command is queued only while the request's token still stands as the API read it, the game is still
-- at the version whose record the API checked the command on (seat, type, parse), and the request's rates
-- have room; then it is claimed and queued as submit.lua does.
-- Composed by services/api/admission.py: RATES(KEYS, ARGV) is ratelimit.lua and SUBMIT(KEYS, ARGV) is
-- submit.lua, each as a function of its own KEYS and ARGV.
-- KEYS: 1-4 submit.lua's, 5 the token's key, 6 the game's head hash, 7.. one counter per rate
-- ARGV: 1-6 submit.lua's, 7 the token's record as the API read it, 8 the game's version as the API has it,
--       9 now (ms), then per rate its amount and window (ms)
-- Returns {"again"} (the token or the game changed: nothing counted, nothing queued; the API admits the
-- request the long way), {"rate", index, wait ms} (a rate is spent: nothing queued), or submit.lua's answer.
-- When nothing is queued a marker is pushed to the reply list (KEYS[4]), so the waiting BLPOP returns at once.
local function marked(answer)
  redis.call('RPUSH', KEYS[4], '{"gate":"' .. answer[1] .. '"}')
  redis.call('EXPIRE', KEYS[4], tonumber(ARGV[6]))
  return answer
end
if redis.call('GET', KEYS[5]) ~= ARGV[7] then
  return marked({'again'})
end
local version = redis.call('HGET', KEYS[6], 'version') or '0'
if version ~= ARGV[8] then
  return marked({'again'})
end
local rate_keys, rate_args = {}, {ARGV[9]}
for i = 7, #KEYS do
  rate_keys[#rate_keys + 1] = KEYS[i]
  rate_args[#rate_args + 1] = ARGV[10 + 2 * (i - 7)]
  rate_args[#rate_args + 1] = ARGV[11 + 2 * (i - 7)]
end
local counted = RATES(rate_keys, rate_args)
if redis.set_repl then redis.set_repl(redis.REPL_ALL) end  -- the rates may have turned replication off
if tonumber(counted[1]) ~= 0 then
  return marked({'rate', counted[1], counted[2]})
end
return SUBMIT(KEYS, ARGV)
