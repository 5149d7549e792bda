-- Check and count every rate limit of one request in one step: either all of them have room and each is
-- counted, or the first without room is named and nothing is counted.
--
-- A sliding window counter (the approximation the `limits` library's SlidingWindowCounter strategy uses):
-- the count of the window now running plus the previous window's count weighted by how much of it still lies
-- in the last `window` milliseconds. One hash per limit: s = start of the current window (ms), c = its count,
-- p = the previous window's count; it lapses two windows after its current window began.
--
-- KEYS: one hash per limit. ARGV[1]: now (ms); then per limit its amount and window (ms).
-- Returns {0, 0} when counted, else {index of the first limit without room, ms until one more would fit}.
--
-- Counters whose windows are all a minute or shorter (the hot routes': the address's, the seat's commands)
-- are not written to the AOF nor sent to replicas: with `appendfsync always` every write holds its reply
-- until the disk has it, which made each read of `/legal` and each admission of a command wait on an
-- fsync for a count worth at most a minute. A restart or a failover forgets at most that minute's count.
-- Longer windows (registrations per hour and per day) stay durable. (fakeredis has no `set_repl`.)
local now = tonumber(ARGV[1])
local durable = false
for i = 1, #KEYS do
    if tonumber(ARGV[2 * i + 1]) > 60000 then durable = true end
end
if not durable and redis.set_repl then redis.set_repl(redis.REPL_NONE) end
local counted = {}
for i, key in ipairs(KEYS) do
    local limit = tonumber(ARGV[2 * i])
    local window = tonumber(ARGV[2 * i + 1])
    local held = redis.call('HMGET', key, 's', 'c', 'p')
    local start, current, previous = tonumber(held[1]), tonumber(held[2]) or 0, tonumber(held[3]) or 0
    local moved = false
    if start == nil or now - start >= 2 * window then
        start, current, previous, moved = now, 0, 0, true
    elseif now - start >= window then
        start, previous, current, moved = start + window, current, 0, true
    end
    local left = window - math.max(now - start, 0)  -- of the current window; the previous one's weight
    if math.floor(previous * left / window) + current + 1 > limit then
        -- the first moment one more fits: the previous window's weight falls as this one runs, and when this
        -- one ends its count becomes the previous one
        local wait
        if current < limit then
            wait = left - (limit - current) * window / previous + 1
        elseif limit > 0 then
            wait = left + window - limit * window / current + 1
        else
            wait = left + window
        end
        return {i, math.ceil(wait)}
    end
    counted[i] = {start, current + 1, previous, moved, window}
end
for i, key in ipairs(KEYS) do
    local c = counted[i]
    redis.call('HSET', key, 's', c[1], 'c', c[2], 'p', c[3])
    if c[4] then redis.call('PEXPIRE', key, math.max(c[1] + 2 * c[5] - now, 1)) end
end
return {0, 0}
