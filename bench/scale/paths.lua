-- wrk script of ./dev bench scale: each request is the next line of the file SCALE_PATHS (a
-- list bench/scale/paths.py wrote, shuffled), each thread starting at its own place in it, with
-- the bench key (BENCH_KEY) when it is set. Every path of the list is asked in turn, so the
-- spread of parameters is what the server sees.
local file = os.getenv("SCALE_PATHS")
local paths = {}
for line in io.lines(file) do
    if line ~= "" then
        paths[#paths + 1] = line
    end
end
assert(#paths > 0, "no path in " .. file)

local key = os.getenv("BENCH_KEY")
if key and key ~= "" then
    wrk.headers["Authorization"] = "Bearer " .. key
end

local threads = 0
function setup(thread)
    thread:set("index", threads)
    threads = threads + 1
end

local next_path = 1
function init(args)
    -- index is set by setup() on this thread's copy of the script before init runs.
    next_path = (index or 0) * 7919 % #paths + 1
end

function request()
    local path = paths[next_path]
    next_path = next_path % #paths + 1
    return wrk.format("GET", path)
end
