-- Admit one request of a game's routes in one step: its rates checked and counted (ratelimit.lua, defined
-- above this as count_rates), then, only when they have room, the reads the request needs (its token's
-- record, the game's meta and head, the route's own: a view, the legal commands, the clock).
--
-- KEYS: the rates' counters (ARGV[1] of them), then one key per read.
-- ARGV: the number of rates, now (ms), amount and window (ms) per rate, then per read its command (GET,
-- HGET, HGETALL) and field ('' for none).
-- Returns {index of the first rate without room, ms to wait} when refused (nothing read), else
-- {0, 0, the reads' replies in order}.
local rates = tonumber(ARGV[1])
local rate_keys, rate_args = {}, {ARGV[2]}
for i = 1, rates do
    rate_keys[i] = KEYS[i]
    rate_args[2 * i], rate_args[2 * i + 1] = ARGV[2 * i + 1], ARGV[2 * i + 2]
end
local verdict = count_rates(rate_keys, rate_args)
if verdict[1] ~= 0 then return verdict end
local out, arg = {0, 0}, 2 * rates + 3
for k = rates + 1, #KEYS do
    local command, field = ARGV[arg], ARGV[arg + 1]
    arg = arg + 2
    if field == '' then
        out[#out + 1] = redis.call(command, KEYS[k])
    else
        out[#out + 1] = redis.call(command, KEYS[k], field)
    end
end
return out
