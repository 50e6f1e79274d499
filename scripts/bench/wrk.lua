-- wrk's script for npm run bench (scripts/bench/load.mjs).
-- At the end it prints one JSON line: requests, duration, non-2xx answers,
-- socket errors, and latency percentiles in microseconds.
-- With WRK_KEYS_FILE set (one key a line), each request carries the next key
-- as "Authorization: Bearer KEY": thread t of WRK_THREADS sends keys OFFSET+t,
-- OFFSET+t+WRK_THREADS, ... (OFFSET is WRK_KEYS_OFFSET), so no two threads
-- send the same key, and a run that starts where the last one ended repeats
-- no key the server saw recently. Without it, wrk sends its one request.

-- WRK_AUTHORIZATION, when set, is the Authorization header of every request
-- (from the environment, so that a key never shows in the process list).

local authorization = os.getenv("WRK_AUTHORIZATION")
if authorization then
  wrk.headers["Authorization"] = authorization
end

local keysFile = os.getenv("WRK_KEYS_FILE")
local stride = tonumber(os.getenv("WRK_THREADS") or "1")
local nextThread = 0

function setup(thread)
  thread:set("tid", nextThread)
  nextThread = nextThread + 1
end

-- Defined only when keys rotate: a script that defines request() makes wrk call it for every request.
if keysFile then
  local requests = {}
  local index = 0

  function init()
    for key in io.lines(keysFile) do
      requests[#requests + 1] = wrk.format(nil, nil, { ["Authorization"] = "Bearer " .. key })
    end
    index = tonumber(os.getenv("WRK_KEYS_OFFSET") or "0") + tid
  end

  function request()
    local chosen = requests[index % #requests + 1]
    index = index + stride
    return chosen
  end
end

function done(summary, latency)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"non2xx":%d,"errors":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
