-- A command id used by a request refused as malformed (it names no command of the game): record the refusal
-- as the id's outcome, unless the id names something already.
-- Runs after claims.lua (CLAIM, UNCLAIM).
-- KEYS: 1 the game's command-id claims (claims.lua), 2 command records hash, 3 rejections hash
-- ARGV: 1 command id, 2 the claim of the id for the malformed body (claims.lua), 3 the rejection outcome (JSON)
-- Returns "recorded" (the id is now this refusal's), "same" (it already was: the same body again),
-- or "reused" (the id names another command, settled or on its way).
local same = CLAIM(KEYS[1], ARGV[2])
if same == nil then
  if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 or redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then
    UNCLAIM(KEYS[1], string.sub(ARGV[2], 1, 8))  -- settled before claims were kept per game: the id is taken
    return 'reused'
  end
  redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
  return 'recorded'
end
if same then
  return 'same'
end
return 'reused'
