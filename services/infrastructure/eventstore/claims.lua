-- A game's command-id claims, compact (issue 35): one string per game (keys.command_claims), 16 bytes a claim:
-- the first 8 bytes of the SHA-1 of the command id, then the first 8 of the SHA-1 of the body's fingerprint
-- (made by services/infrastructure/async_commands.py:claim_of). Prepended to submit.lua and spend.lua (and the
-- API's gate through submit.lua): functions, no KEYS of their own.

-- The 1-based position of the claim of the id digest ``id`` (8 bytes) in the string (nil: none), and the string.
local function FIND_CLAIM(key, id)
  local index = redis.call('GET', key) or ''
  local pos = 1
  while true do
    local at = string.find(index, id, pos, true)
    if not at then return nil, index end
    if (at - 1) % 16 == 0 then return at, index end
    pos = at + 1
  end
end

-- Claim (16 bytes: id digest, body digest): nil when the id was not claimed (it is now), else whether it is
-- claimed for the same body.
local function CLAIM(key, claim)
  local at, index = FIND_CLAIM(key, string.sub(claim, 1, 8))
  if at then
    return string.sub(index, at, at + 15) == claim
  end
  redis.call('APPEND', key, claim)
  return nil
end

-- Withdraw the claim of an id digest (its place is kept, overwritten by a tombstone of zero bytes).
local function UNCLAIM(key, id)
  local at = FIND_CLAIM(key, id)
  if at then
    redis.call('SETRANGE', key, at - 1, string.rep('\0', 8))
  end
end
